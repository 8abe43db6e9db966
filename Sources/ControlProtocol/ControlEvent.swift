import JSON

/// One packet of the `watch` stream after its first reply, stamped with the daemon's monotonic clock
/// (`session_ms`) so a watcher can time it in session time. The daemon writes each with `json`, the command
/// line reads each with `init(json:)`: one codec for the stream.
public enum ControlEvent: Hashable, Sendable {
    /// The session changed (`ControlSnapshot` carries its own `session_ms`).
    case snapshot(ControlSnapshot)
    /// A sentence for the person (why GO was refused, the verdict).
    case say(sessionMs: Int64, text: String)
    /// The buzzer played the pattern of this name.
    case sound(sessionMs: Int64, name: String)
    /// A key or GO on the panel ("go", "go-long", "0"–"9", "*", "#").
    case input(sessionMs: Int64, button: String)
    /// A morning was written: its day and how many raw RR intervals were kept.
    case saved(sessionMs: Int64, date: String, rawRR: Int64)

    public var sessionMs: Int64 {
        switch self {
        case .snapshot(let snapshot): snapshot.sessionMs
        case .say(let ms, _), .sound(let ms, _), .input(let ms, _), .saved(let ms, _, _): ms
        }
    }

    public var json: JSONValue {
        func event(_ name: String, _ ms: Int64, _ fields: [(String, JSONValue)]) -> JSONValue {
            .object([("event", .string(name)), ("session_ms", .integer(ms))] + fields)
        }
        switch self {
        case .snapshot(let snapshot): return snapshot.json
        case .say(let ms, let text): return event("say", ms, [("text", .string(text))])
        case .sound(let ms, let name): return event("sound", ms, [("name", .string(name))])
        case .input(let ms, let button): return event("input", ms, [("button", .string(button))])
        case .saved(let ms, let date, let rawRR):
            return event("saved", ms, [("date", .string(date)), ("raw_rr", .integer(rawRR))])
        }
    }

    /// Reads a packet of the stream; an unknown event or a missing field is one sentence.
    public init(json: JSONValue) throws(ControlMalformed) {
        let packet = try ControlFields(json, what: "watch packet")
        let name = try packet.string("event")
        if name == "snapshot" {
            self = .snapshot(try ControlSnapshot(json: json))
            return
        }
        // The sentence names the packet, never the event's own name: that came from the socket.
        let fields = packet
        let ms = try fields.int("session_ms")
        switch name {
        case "say": self = .say(sessionMs: ms, text: try fields.string("text"))
        case "sound": self = .sound(sessionMs: ms, name: try fields.string("name"))
        case "input": self = .input(sessionMs: ms, button: try fields.string("button"))
        case "saved": self = .saved(sessionMs: ms, date: try fields.string("date"), rawRR: try fields.int("raw_rr"))
        default: throw packet.malformed("event")
        }
    }
}

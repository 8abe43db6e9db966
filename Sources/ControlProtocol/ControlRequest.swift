import JSON

/// One request on the daemon's control socket. The protocol: a Unix `SOCK_SEQPACKET` socket, one JSON
/// object per packet each way (at most 64 KiB). Requests name themselves with `"request"`; every reply
/// has `"ok"` and `"version"` (`ControlReply`), and a refusal has `"error"` (a `RefusalCode`) and `"message"`
/// (one sentence). `watch` is
/// answered once, then followed by `{"event": "snapshot" | "say" | "sound", …}` packets until the client
/// closes. Peers must be root, the daemon's own user, or in `control_group`.
public enum ControlRequest: Hashable, Sendable {
    /// Start a morning, as GO does; `overwrite` confirms replacing today's measurement.
    case measure(overwrite: Bool)
    case cancel
    /// Stream the session's state.
    case watch
    /// One snapshot.
    case status
    /// Today's questionnaire or measurement changed outside the daemon (`recoverydeck checkin`).
    case dayChanged
    /// Simulated panel only: presses (`go`, `go-long`, or a key label), each `afterMs` from now in session
    /// time; one request for a whole sequence, so they all count from the same instant.
    case press([Press])
    /// Simulated clock only: move time forward.
    case advance(seconds: Int64)
    /// `recoverydeck restore` is about to rewrite the database: start and save no morning until
    /// `resumeWrites` or until this client's connection closes. Refused while a session runs.
    case pauseWrites
    /// The database was rewritten: read today's facts and settings again, and write as before.
    case resumeWrites
    /// Listen for straps for `seconds` (1 to `maximumScanSeconds`) on the daemon's controller, or on `adapter`,
    /// and answer with what was found (`"straps"`): how a person without CAP_NET_ADMIN scans and pairs.
    /// Refused while a morning runs.
    case scan(seconds: Int, adapter: String?)

    public static let maximumPacket = 65_536

    /// The control protocol's version, sent in every request and reply. Each end refuses the other's when it
    /// differs, with one sentence: a command line and a daemon from different releases say so instead of
    /// misreading each other.
    public static let protocolVersion: Int64 = 1

    /// The longest a simulated press may wait (a day): far beyond any script, and small enough that adding
    /// it to any clock reading cannot overflow.
    public static let maximumPressDelayMs: Int64 = 86_400_000
    /// The furthest a simulated clock may jump in one request (400 days), for the same reason.
    public static let maximumAdvanceSeconds: Int64 = 400 * 86_400
    /// The longest scan one request may ask for, as `recoverydeck scan --seconds` allows.
    public static let maximumScanSeconds = 120

    public var json: JSONValue {
        guard case .object(let members) = body else { return body }
        return .object(members + [("version", .integer(ControlRequest.protocolVersion))])
    }

    private var body: JSONValue {
        switch self {
        case .measure(let overwrite): .object([("request", .string("measure")), ("overwrite", .bool(overwrite))])
        case .cancel: .object([("request", .string("cancel"))])
        case .watch: .object([("request", .string("watch"))])
        case .status: .object([("request", .string("status"))])
        case .dayChanged: .object([("request", .string("day-changed"))])
        case .press(let presses):
            .object([
                ("request", .string("press")),
                (
                    "presses",
                    .array(
                        presses.map { .object([("button", .string($0.button)), ("after_ms", .integer($0.afterMs))]) })
                ),
            ])
        case .advance(let s): .object([("request", .string("advance")), ("seconds", .integer(s))])
        case .pauseWrites: .object([("request", .string("pause-writes"))])
        case .resumeWrites: .object([("request", .string("resume-writes"))])
        case .scan(let seconds, let adapter):
            .object(
                [("request", .string("scan")), ("seconds", .integer(Int64(seconds)))]
                    + (adapter.map { [("adapter", .string($0))] } ?? []))
        }
    }

    /// Reads a request packet; nil with a reason for anything else.
    public static func parse(_ bytes: [UInt8]) -> Result<ControlRequest, ControlRefusal> {
        guard let text = String(validating: bytes, as: UTF8.self),
            let json = try? JSONValue.parse(text), let name = json["request"]?.stringValue
        else {
            return .failure(
                ControlRefusal(
                    code: .badRequest, message: "The request is not a JSON object with a \"request\" name."))
        }
        // A request without a version comes from a script by hand: taken as this version's.
        if let version = json["version"]?.int64Value, version != protocolVersion {
            return .failure(
                ControlRefusal(
                    code: .versionMismatch,
                    message: "This recoverydeckd speaks control protocol \(protocolVersion), the request \(version): "
                        + "install the same release of recoverydeck and recoverydeckd."))
        }
        switch name {
        case "measure": return .success(.measure(overwrite: json["overwrite"]?.boolValue ?? false))
        case "cancel": return .success(.cancel)
        case "watch": return .success(.watch)
        case "status": return .success(.status)
        case "day-changed": return .success(.dayChanged)
        case "pause-writes": return .success(.pauseWrites)
        case "resume-writes": return .success(.resumeWrites)
        case "press":
            // Either one press ("button", "after_ms") or a sequence ("presses": [{"button", "after_ms"}, …]).
            let items = json["presses"]?.arrayValue ?? [json]
            var presses: [Press] = []
            for item in items {
                guard let button = item["button"]?.stringValue else {
                    return .failure(ControlRefusal(code: .badRequest, message: "press needs a \"button\"."))
                }
                let after = item["after_ms"]?.int64Value ?? 0
                guard after >= 0 else {
                    return .failure(ControlRefusal(code: .badRequest, message: "after_ms cannot be negative."))
                }
                guard after <= maximumPressDelayMs else {
                    return .failure(
                        ControlRefusal(
                            code: .badRequest, message: "after_ms can be at most \(maximumPressDelayMs) (a day)."))
                }
                presses.append(Press(button, afterMs: after))
            }
            guard !presses.isEmpty else {
                return .failure(ControlRefusal(code: .badRequest, message: "press needs at least one button."))
            }
            return .success(.press(presses))
        case "advance":
            guard let s = json["seconds"]?.int64Value, s > 0 else {
                return .failure(ControlRefusal(code: .badRequest, message: "advance needs positive \"seconds\"."))
            }
            guard s <= maximumAdvanceSeconds else {
                return .failure(
                    ControlRefusal(
                        code: .badRequest,
                        message: "advance can move the clock at most \(maximumAdvanceSeconds) seconds (400 days) at once."))
            }
            return .success(.advance(seconds: s))
        case "scan":
            guard let s = json["seconds"]?.int64Value, (1...Int64(maximumScanSeconds)).contains(s) else {
                return .failure(
                    ControlRefusal(
                        code: .badRequest, message: "scan needs \"seconds\" from 1 to \(maximumScanSeconds)."))
            }
            let adapter = json["adapter"]?.stringValue
            if let adapter, adapter.utf8.count > 32 {
                return .failure(ControlRefusal(code: .badRequest, message: "scan's \"adapter\" is too long."))
            }
            return .success(.scan(seconds: Int(s), adapter: adapter))
        default:
            return .failure(ControlRefusal(code: .unknownRequest, message: "Unknown request \"\(name)\"."))
        }
    }
}

/// One press of the simulated panel's GO button or a key, some time from now.
public struct Press: Hashable, Sendable {
    public var button: String
    public var afterMs: Int64

    public init(_ button: String, afterMs: Int64 = 0) {
        self.button = button
        self.afterMs = afterMs
    }
}

/// A request the daemon refused: a stable code and one sentence.
public struct ControlRefusal: Error, Hashable, Sendable {
    public var code: RefusalCode
    public var message: String

    public init(code: RefusalCode, message: String) {
        self.code = code
        self.message = message
    }

    /// The refusal in a reply, nil when the reply is not one (`"ok": true`). An unknown code (a newer daemon)
    /// reads as `badRequest`, its sentence kept.
    public init?(reply: JSONValue) {
        guard reply["ok"]?.boolValue != true else { return nil }
        code = reply["error"]?.stringValue.flatMap(RefusalCode.init(rawValue:)) ?? .badRequest
        message = reply["message"]?.stringValue ?? "recoverydeckd refused the request."
    }

    public var json: JSONValue {
        .object([
            ("ok", .bool(false)), ("error", .string(code.rawValue)), ("message", .string(message)),
            ("version", .integer(ControlRequest.protocolVersion)),
        ])
    }
}

/// A reply that is not a refusal: `"ok": true`, the protocol's version, then the request's own fields.
public enum ControlReply {
    public static func ok(_ fields: [(String, JSONValue)]) -> JSONValue {
        .object([("ok", .bool(true)), ("version", .integer(ControlRequest.protocolVersion))] + fields)
    }
}

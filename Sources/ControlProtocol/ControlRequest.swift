import JSON

/// One request on the daemon's control socket. The protocol: a Unix `SOCK_SEQPACKET` socket, one JSON
/// object per packet each way (at most 64 KiB). Requests name themselves with `"request"`; every reply
/// has `"ok"` and `"version"` (`ControlReply`), and a refusal has `"error"` (a `RefusalCode`) and `"message"`
/// (one sentence); each request's fields are its `ControlAnswer`'s. `watch` is answered once, then followed
/// by `ControlEvent` packets (`{"event": "snapshot" | "say" | "sound" | "input" | "saved", …}`) until the client
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

/// A request the daemon refused: a stable code and one sentence.
public struct ControlRefusal: Error, Hashable, Sendable {
    public var code: RefusalCode
    public var message: String

    public init(code: RefusalCode, message: String) {
        self.code = code
        self.message = message
    }

    /// A refusal's fields (`"ok": false`): a code this release knows and its sentence. Both ends speak one
    /// protocol version, so an unknown code is a malformed reply, not a guess.
    init(_ fields: ControlFields) throws(ControlMalformed) {
        guard let code = RefusalCode(rawValue: try fields.string("error")) else { throw fields.malformed("error") }
        self.code = code
        message = try fields.string("message")
    }

    public var json: JSONValue {
        .object([
            ("ok", .bool(false)), ("error", .string(code.rawValue)), ("message", .string(message)),
            ("version", .integer(ControlRequest.protocolVersion)),
        ])
    }
}

/// A reply that is not a refusal: `"ok": true`, the protocol's version, then the request's own fields (each
/// request's `ControlAnswer` names them).
public enum ControlReply {
    public static func ok(_ fields: [(String, JSONValue)]) -> JSONValue {
        .object([("ok", .bool(true)), ("version", .integer(ControlRequest.protocolVersion))] + fields)
    }
}

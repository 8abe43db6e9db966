import JSON

/// The answer to one kind of request: the daemon encodes it with `json` and the command line decodes it with
/// `decode`, so each field is named once for both ends.
public protocol ControlAnswer: Sendable {
    /// The request it answers, for sentences ("the reply to measure").
    static var request: String { get }
    /// The answer's own fields, after `"ok"` and `"version"`.
    var fields: [(String, JSONValue)] { get }
    init(_ fields: ControlFields) throws(ControlMalformed)
}

extension ControlAnswer {
    /// The reply packet.
    public var json: JSONValue { ControlReply.ok(fields) }

    /// Reads a reply: this answer, or the daemon's refusal, or one sentence saying what is malformed.
    public static func decode(_ reply: JSONValue) throws(ControlFailure) -> Self {
        let fields: ControlFields
        let ok: Bool
        do throws(ControlMalformed) {
            fields = try ControlFields(reply, what: "reply to \(request)")
            ok = try fields.bool("ok")
        } catch { throw .malformed(error) }
        guard ok else {
            let refusal: ControlRefusal
            do throws(ControlMalformed) { refusal = try ControlRefusal(fields) } catch { throw .malformed(error) }
            throw .refused(refusal)
        }
        do throws(ControlMalformed) { return try Self(fields) } catch { throw .malformed(error) }
    }
}

/// Why a request got no answer: the daemon could not be reached, refused it, or answered out of shape.
public enum ControlFailure: Error, CustomStringConvertible {
    case unreachable(ControlClient.Unreachable)
    case refused(ControlRefusal)
    case malformed(ControlMalformed)

    public var description: String {
        switch self {
        case .unreachable(let unreachable): unreachable.description
        case .refused(let refusal): refusal.message
        case .malformed(let malformed): malformed.description
        }
    }
}

import ControlProtocol
import JSON

/// A simulation request refused for a reason only a simulated box has: a press or clock move needs a part the
/// daemon was not given, or a press names no button of the panel. It travels as the control protocol's refusal
/// (`"ok": false`, `"error"`, `"message"`, `"version"`) with codes of its own, so the box's vocabulary
/// (`RefusalCode`) holds no word of the simulation; what the protocol itself refuses (`busy`, `bad_request`)
/// stays a `ControlRefusal`.
public struct SimulationRefusal: Error, Hashable, Sendable {
    public enum Code: String, CaseIterable, Hashable, Sendable {
        /// Presses need the simulated panel, clock moves the stepped clock.
        case notSimulated = "not_simulated"
        /// A press names neither GO nor a key.
        case badButton = "bad_button"
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The simulation's refusal in a reply; nil for an accepted request or a refusal of the protocol's own.
    public init?(reply: JSONValue) {
        guard reply["ok"]?.boolValue != true, let code = reply["error"]?.stringValue.flatMap(Code.init(rawValue:))
        else { return nil }
        self.code = code
        message = reply["message"]?.stringValue ?? "The simulated box refused the request."
    }

    public var json: JSONValue {
        .object([
            ("ok", .bool(false)), ("error", .string(code.rawValue)), ("message", .string(message)),
            ("version", .integer(ControlRequest.protocolVersion)),
        ])
    }

    /// The sentence of a refusal in `reply`, the simulation's or the protocol's; nil when the request was accepted.
    public static func sentence(in reply: JSONValue) -> String? {
        if let refusal = SimulationRefusal(reply: reply) { return refusal.message }
        guard reply["ok"]?.boolValue != true else { return nil }
        // The protocol's own refusal, read by its one decoder (a reply out of shape is its sentence too).
        do { _ = try Acknowledged.decode(reply) } catch { return error.description }
        return nil
    }
}

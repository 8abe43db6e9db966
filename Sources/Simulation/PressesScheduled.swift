import ControlProtocol
import JSON

/// The answer to the simulated box's `press` request: the daemon's clock when the presses were scheduled, from
/// which they count.
public struct PressesScheduled: ControlAnswer, Hashable {
    public static let request = "press"
    public var sessionMs: Int64

    public init(sessionMs: Int64) { self.sessionMs = sessionMs }

    public var fields: [(String, JSONValue)] { [("session_ms", .integer(sessionMs))] }

    public init(_ fields: ControlFields) throws(ControlMalformed) { sessionMs = try fields.int("session_ms") }
}

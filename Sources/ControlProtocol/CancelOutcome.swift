import JSON

/// The answer to `cancel`: whether a running session was stopped, or only a readout or a fault code cleared.
public struct CancelOutcome: ControlAnswer, Hashable {
    public static let request = "cancel"
    /// The phase after the cancel, and the one before it (`MorningSession.Phase`'s raw values).
    public var phase: String
    public var was: String
    /// False: no session was running, only the panel was cleared.
    public var cancelled: Bool

    public init(phase: String, was: String, cancelled: Bool) {
        self.phase = phase
        self.was = was
        self.cancelled = cancelled
    }

    public var fields: [(String, JSONValue)] {
        [("phase", .string(phase)), ("was", .string(was)), ("cancelled", .bool(cancelled))]
    }

    public init(_ fields: ControlFields) throws(ControlMalformed) {
        phase = try fields.string("phase")
        was = try fields.string("was")
        cancelled = try fields.bool("cancelled")
    }
}

/// Why the daemon refused a request: the stable `"error"` code of a refusal, one vocabulary for both ends
/// (the daemon writes it, the command line reads it back through `ControlAnswer.decode`).
public enum RefusalCode: String, CaseIterable, Hashable, Sendable {
    /// Not a JSON object naming a request, or a request's values out of bounds.
    case badRequest = "bad_request"
    case unknownRequest = "unknown_request"
    /// Longer than `ControlRequest.maximumPacket`: refused whole, never cut and answered.
    case tooLarge = "too_large"
    /// The two ends speak different control protocol versions.
    case versionMismatch = "version_mismatch"
    /// Not root, the daemon's user or in the control group; or, for the writes' pause, not root or the daemon's user.
    case permission
    /// One user already holds `ControlServer.connectionsPerUser` connections.
    case tooManyConnections = "too_many_connections"
    /// A morning session runs (or the clock cannot jump during one).
    case busy
    /// A restore holds the database's writes.
    case paused
    /// The writes' pause is another client's.
    case notHolder = "not_holder"
    case clockUnsynchronised = "clock_unsynchronised"
    /// The session's own declines (`MorningSession.Decline`).
    case questionnaireMissing = "questionnaire_missing"
    case alreadyMeasured = "already_measured"
    case nothingToCancel = "nothing_to_cancel"
    /// Bluetooth discovery failed, with the adapter's sentence.
    case bluetooth
    /// A simulated strap: there is no radio to scan.
    case notBluetooth = "not_bluetooth"
}

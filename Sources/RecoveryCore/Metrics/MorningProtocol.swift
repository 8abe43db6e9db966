/// The combined morning protocol's timings, in ms (RecoveryDeck spec §5.1, §6.1; DESIGN §3): the one place
/// they are written. The session runs its phases on them (`SessionTimings.standard`), the rMSSD window closes
/// on them (`RMSSDWindow.Configuration.morning`), and a stored morning's phases are rebuilt from its marks
/// with them (`OrthostaticCalculator.phases(of:)`).
public enum MorningProtocol {
    /// Lying still before the rMSSD capture; RR here are discarded for rMSSD (spec §5.1 "Settle").
    public static let settleMs: Int64 = 15_000
    /// The rMSSD capture gives up this long after the settle (spec §5.1 "max wall-clock 90 s after settle").
    public static let captureMaxMs: Int64 = 90_000
    /// Lying heart rate, right after the capture (spec §6.1 CaptureLyingHR).
    public static let lyingMs: Int64 = 30_000
    /// The stand cue: 3-2-1, then the long tone (spec §6.1 PromptStand).
    public static let standCueMs: Int64 = 3_000
    /// Standing heart rate, from the long tone (spec §6.1 CaptureStanding).
    public static let standingMs: Int64 = 60_000
}

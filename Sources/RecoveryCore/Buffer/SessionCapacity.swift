/// How many samples one morning session can hold (DESIGN §4: sized for the longest session plus margin).
///
/// Longest session, wall clock (RecoveryDeck spec §6.1, §5.1): settle 15 s + capture up to 90 s + lying 30 s
/// + stand cue 3 s + standing 60 s = 198 s. At 220 bpm (above any resting or standing rate) that is
/// 198 × 220 / 60 = 726 RR intervals. A strap that drops and reconnects replays nothing, but a resumed session
/// runs longer: allowing one reconnect of up to 60 s more gives 258 s × 220 / 60 = 946, so 1024 RR.
/// The strap sends about one BPM value per second: 258 s → 258 readings; doubled for straps that notify at
/// 2 Hz, 516, so 1024 as well (16 bytes each).
public enum SessionCapacity {
    public static let rrIntervals = 1024
    public static let heartRates = 1024
    /// Accepted RR of one rMSSD window: 90 s at 220 bpm = 330, rounded up.
    public static let windowIntervals = 512
}

/// How many samples one morning session holds (DESIGN §4: sized for the longest session plus margin), worked out
/// from the session's own timings so that a box run with other timings is sized for them too.
///
/// The session keeps samples from the strap's first notification to the end of standing (`longestRecordingMs`:
/// with the spec's timings 331 s, one drop-out and resume included). At 220 bpm (above any resting or standing
/// rate) that is 331 × 220 / 60 = 1213 RR; a quarter more for margin gives 1516. A notification carries at
/// least one RR when RR are sent, and an HR-only strap notifies about once a second, so there are never more
/// readings than beats: the readings get the same capacity (16 bytes each, about 24 KiB per store).
/// Past capacity a store refuses and counts (`RingBuffer`); it never grows.
public struct SessionCapacity: Hashable, Sendable {
    /// A heart rate above any the protocol meets lying or standing, so the stores never fill in a real morning.
    public static let highestBpm: Int64 = 220

    public let rrIntervals: Int
    public let heartRates: Int

    public init(timings: SessionTimings) {
        let beats = Int(timings.longestRecordingMs * Self.highestBpm / 60_000)
        rrIntervals = beats + beats / 4
        heartRates = rrIntervals
    }

    /// The spec's timings.
    public static let standard = SessionCapacity(timings: .standard)

    /// Accepted RR of one rMSSD window: 90 s at 220 bpm = 330, rounded up.
    public static let windowIntervals = 512
}

/// Finds gaps in a strap's RR stream: beats that were sent but never received (RecoveryDeck spec §5.1: a gap in
/// the stream between two accepted beats breaks their pair).
///
/// The heart's beats tile time, so the RR received add up to the time that passed: for every notification,
/// `lag = receivedAt − ΣRR so far` stays within a narrow band. A lost notification (or a link that paused)
/// takes its beats' time with it and raises the lag for good by their sum. The band's width is how late a beat
/// can reach the box: the H10 batches beats into about one notification a second (up to 1000 ms after the beat
/// ends) and the link delivers it at the next connection event, at most 500 ms later with the parameters the
/// strap asks for (DESIGN §5). So a lag more than `toleranceMs` (1500 ms) above the lowest lag seen is a gap;
/// the band then restarts from the new lag. Losses shorter than the band (one beat lost alone) cannot be told
/// from delivery delay and are not found; the link retransmits at the link layer, so notifications are lost in
/// practice only with the link, which loses seconds.
///
/// Notifications without RR say nothing about the stream (a slow beat may not end within a notification) and
/// are ignored. Every received RR counts as time, rejected ones too: an artifact is still time that passed.
public struct StreamContinuity: Hashable, Sendable {
    public static let toleranceMs = 1_500.0

    @usableFromInline var receivedSumMs = 0.0
    @usableFromInline var lowestLagMs = Double.infinity

    public init() {}

    /// Takes one notification carrying RR that sum to `rrSumMs`, received at `receivedAtMs`; true when beats
    /// were lost before it.
    @inlinable
    public mutating func notification(rrSumMs: Double, at receivedAtMs: Int64) -> Bool {
        guard rrSumMs > 0, rrSumMs.isFinite else { return false }
        receivedSumMs += rrSumMs
        let lag = Double(receivedAtMs) - receivedSumMs
        if lag > lowestLagMs + StreamContinuity.toleranceMs {
            lowestLagMs = lag
            return true
        }
        if lag < lowestLagMs { lowestLagMs = lag }
        return false
    }
}

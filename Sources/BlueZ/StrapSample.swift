/// One Heart Rate Measurement as the box keeps it (RecoveryDeck spec §4.3 "HRSample"): when it
/// arrived, the strap's BPM, and the RR intervals that ended since the previous one, raw.
public struct StrapSample: Hashable, Sendable {
    /// `CLOCK_MONOTONIC` milliseconds at which the notification was read.
    public var receivedAtMs: Int64
    /// The strap's heart rate; nil when the strap reports no skin contact or a zero rate.
    public var bpm: UInt16?
    /// RR intervals in 1/1024 s, oldest first; `rr_ms = rr_raw × 1000 / 1024` (spec §4.1).
    public var rrRaw: [UInt16]

    public init(receivedAtMs: Int64, bpm: UInt16?, rrRaw: [UInt16]) {
        self.receivedAtMs = receivedAtMs
        self.bpm = bpm
        self.rrRaw = rrRaw
    }
}

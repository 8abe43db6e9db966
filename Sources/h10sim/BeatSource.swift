import RecoveryCore

/// Where the virtual strap's heartbeats come from: RR intervals in the strap's 1/1024 s, in order.
protocol BeatSource {
    /// The next RR interval (raw 1/1024 s), or nil when the source has run out.
    mutating func nextRR() -> UInt16?
}

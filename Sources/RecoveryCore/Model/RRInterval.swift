/// One RR interval as the strap sent it: the raw 1/1024 s count (lossless, what the wire carries) and
/// when it arrived, in milliseconds since the session started (monotonic clock).
public struct RRInterval: Hashable, Sendable {
    public var raw: UInt16
    public var receivedAtMs: Int64

    public init(raw: UInt16, receivedAtMs: Int64) {
        self.raw = raw
        self.receivedAtMs = receivedAtMs
    }

    /// RecoveryDeck spec §4.1: `rr_ms = rr_raw * 1000 / 1024`.
    @inlinable public var milliseconds: Double { Double(raw) * 1000.0 / 1024.0 }
}

// A plain value, so the session's RR store can hold it (`RingBuffer` takes `BitwiseCopyable` elements).
extension RRInterval: BitwiseCopyable {}

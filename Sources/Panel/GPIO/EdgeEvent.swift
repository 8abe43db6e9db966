import Platform

/// One level change of an input line.
public struct EdgeEvent: Hashable, Sendable {
    public var offset: UInt32
    /// True when the line went high.
    public var rising: Bool
    /// Monotonic timestamp of the change in nanoseconds (the kernel's for hardware lines).
    public var timestampNs: UInt64

    public init(offset: UInt32, rising: Bool, timestampNs: UInt64) {
        self.offset = offset
        self.rising = rising
        self.timestampNs = timestampNs
    }
}

/// "Now" for the session: the monotonic clock drives every timer; the wall clock only dates the morning.
public struct SessionTime: Hashable, Sendable {
    public var monotonicMs: Int64
    public var epochSeconds: Int64

    public init(monotonicMs: Int64, epochSeconds: Int64) {
        self.monotonicMs = monotonicMs
        self.epochSeconds = epochSeconds
    }
}

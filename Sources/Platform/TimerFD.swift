#if canImport(Glibc)
    import Glibc
#endif

/// A one-shot timer on `CLOCK_MONOTONIC` whose descriptor becomes readable at an absolute deadline:
/// the daemon arms one to the earliest deadline any edge needs, so nothing polls while idle
/// (DESIGN §4). Non-blocking, close-on-exec.
public struct TimerFD: Hashable, Sendable {
    public let descriptor: FileDescriptor

    /// The corresponding C function is `timerfd_create`.
    public init() throws(Errno) {
        descriptor = FileDescriptor(rawValue: try valueOrErrno { system_timerfd_create(clock: CLOCK_MONOTONIC) })
    }

    /// Arms the timer to fire once when `SystemClock.monotonicMs()` reaches `deadlineMs`, replacing any
    /// earlier arming. A deadline already past fires at once.
    /// The corresponding C function is `timerfd_settime` with `TFD_TIMER_ABSTIME`.
    public func arm(atMonotonicMs deadlineMs: Int64) throws(Errno) {
        // An all-zero it_value would disarm instead of firing, so the earliest deadline is 1 ns.
        let clamped = max(0, deadlineMs)
        let seconds = clamped / 1000
        let nanoseconds = clamped == 0 ? 1 : (clamped % 1000) * 1_000_000
        _ = try valueOrErrno {
            system_timerfd_settime(
                descriptor.rawValue, clock: CLOCK_MONOTONIC, seconds: seconds, nanoseconds: nanoseconds)
        }
    }

    /// Arms to `deadlineMs`, or disarms for nil.
    public func arm(atMonotonicMs deadlineMs: Int64?) throws(Errno) {
        if let deadlineMs { try arm(atMonotonicMs: deadlineMs) } else { try disarm() }
    }

    /// The corresponding C function is `timerfd_settime` with a zero value.
    public func disarm() throws(Errno) {
        _ = try valueOrErrno {
            system_timerfd_settime(descriptor.rawValue, clock: CLOCK_MONOTONIC, seconds: 0, nanoseconds: 0)
        }
    }

    /// Consumes the expiry so the descriptor stops being readable; returns how many expiries there were
    /// (0 when it had not fired, 1 for a one-shot that had).
    /// The corresponding C function is `read`.
    @discardableResult
    public func acknowledge() throws(Errno) -> UInt64 {
        var count: UInt64 = 0
        do {
            let n = try withUnsafeMutableBytes(of: &count) { (b) throws(Errno) -> Int in try descriptor.read(into: b) }
            return n == 8 ? count : 0
        } catch  where error == .wouldBlock {
            return 0
        }
    }

    /// The corresponding C function is `close`.
    public func close() { descriptor.close() }
}

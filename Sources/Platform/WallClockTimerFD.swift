import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// A one-shot timer on the wall clock (`CLOCK_REALTIME`) for deadlines that are times of day, such as the
/// morning reminder's 06:30: it fires at the wall-clock instant itself, to the millisecond, and it also
/// fires when the wall clock is set (`TFD_TIMER_CANCEL_ON_SET`: a Pi without a real-time clock whose time
/// arrives from the network), so the deadline can be worked out again. Non-blocking, close-on-exec.
public struct WallClockTimerFD: Hashable, Sendable {
    public let descriptor: FileDescriptor

    /// What a readable timer means.
    public enum Expiry: Hashable, Sendable {
        /// Not fired (spurious readiness).
        case none
        /// The wall-clock deadline was reached.
        case fired
        /// The wall clock was set; the timer is disarmed and the deadline must be computed again.
        case clockSet
    }

    /// The corresponding C function is `timerfd_create` with `CLOCK_REALTIME`.
    public init() throws(Errno) {
        descriptor = FileDescriptor(rawValue: try valueOrErrno { system_timerfd_create(clock: CLOCK_REALTIME) })
    }

    /// Arms to fire once when the wall clock reaches `epochMs` (milliseconds since the Unix epoch), or when
    /// the wall clock is set before that.
    /// The corresponding C function is `timerfd_settime` with `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`.
    public func arm(atEpochMs epochMs: Int64) throws(Errno) {
        let clamped = max(1, epochMs)
        _ = try valueOrErrno {
            system_timerfd_settime(
                descriptor.rawValue, clock: CLOCK_REALTIME, seconds: clamped / 1000,
                nanoseconds: (clamped % 1000) * 1_000_000)
        }
    }

    /// The corresponding C function is `timerfd_settime` with a zero value.
    public func disarm() throws(Errno) {
        _ = try valueOrErrno {
            system_timerfd_settime(descriptor.rawValue, clock: CLOCK_REALTIME, seconds: 0, nanoseconds: 0)
        }
    }

    /// Consumes the expiry. The corresponding C function is `read`.
    public func acknowledge() throws(Errno) -> Expiry {
        var count: UInt64 = 0
        do {
            let n = try withUnsafeMutableBytes(of: &count) { (b) throws(Errno) -> Int in try descriptor.read(into: b) }
            return n == 8 && count > 0 ? .fired : .none
        } catch where error == .wouldBlock {
            return .none
        } catch where error.rawValue == ECANCELED {
            return .clockSet
        }
    }

    /// The corresponding C function is `close`.
    public func close() { descriptor.close() }
}

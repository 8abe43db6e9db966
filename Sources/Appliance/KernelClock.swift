import Platform

/// The box's clock: the kernel's `CLOCK_MONOTONIC` for every deadline, `CLOCK_REALTIME` and the system time
/// zone for the calendar, a wall-clock timerfd for the reminder, and the kernel's own word on whether its
/// clock is synchronised for the clock guard.
public final class KernelClock: DaemonClock {
    public init() {}

    public var speed: Double { 1 }
    public func monotonicMs() -> Int64 { SystemClock.monotonicMs() }
    public func realMs() -> Int64 { SystemClock.monotonicMs() }
    public func epochSeconds() -> Int64 { SystemClock.epochSeconds() }
    public func realWakeMs(for deadlineMs: Int64) -> Int64 { deadlineMs }
    /// Everything ready is handled as it comes: the kernel's clock moves by itself.
    public func woke(aimedAt deadlineMs: Int64?, timerFired: Bool, othersReady: Bool) -> Bool { true }

    public func monotonicMs(atEpoch epoch: Int64) -> Int64 {
        monotonicMs() + (epoch - epochSeconds()) * 1000
    }

    public func makeWallTimer() throws(Errno) -> WallClockTimerFD? { try WallClockTimerFD() }
    public func guardFacts() -> SystemClock.GuardFacts? { SystemClock.guardFacts() }
}

import LocalClock
import Platform

/// The clock the daemon is given (DESIGN §4 "Clock"): a monotonic clock for every session deadline, real time
/// for what people and the service manager wait for, and the wall clock with the system time zone for dating
/// mornings and the reminder. The daemon asks only this, never which clock it is: the box is handed
/// `KernelClock`; a simulated box (the demo, the tests) hands in a clock of its own, as an event loop is
/// handed its time source (swift-nio's `EventLoop` beside `EmbeddedEventLoop`). Everything the daemon
/// schedules is in `monotonicMs()`'s milliseconds.
public protocol DaemonClock: AnyObject {
    /// How many times faster than real time the monotonic clock runs (1 on a box): the watch stream's
    /// remaining times are real seconds.
    var speed: Double { get }
    /// Milliseconds on the daemon's monotonic clock.
    func monotonicMs() -> Int64
    /// Milliseconds on the kernel's `CLOCK_MONOTONIC`: the watchdog, a restore's pause, the spool's retries and a
    /// scan wait in real time whatever the session's pace.
    func realMs() -> Int64
    /// Seconds since the epoch on the wall clock.
    func epochSeconds() -> Int64
    /// The `realMs()` time at which to wake for `deadlineMs` (never early).
    func realWakeMs(for deadlineMs: Int64) -> Int64
    /// The loop woke from a wait armed for `deadlineMs`: `timerFired` when its timer did, `othersReady` when other
    /// descriptors are ready too. True when the timer's deadline is handled in this turn (false: it waits for
    /// a later turn, so what is ready is handled at the present instant).
    func woke(aimedAt deadlineMs: Int64?, timerFired: Bool, othersReady: Bool) -> Bool
    /// The monotonic time at which the wall clock will read `epoch` (the reminder's next look).
    func monotonicMs(atEpoch epoch: Int64) -> Int64
    /// The kernel timer that wakes at a wall-clock minute and when the wall clock is set, for the reminder; nil
    /// for a clock no kernel timer knows (its looks are deadlines on `monotonicMs()`).
    func makeWallTimer() throws(Errno) -> WallClockTimerFD?
    /// What the clock guard asks about this clock (RecoveryCore `ClockGuard`): whether it is synchronised and
    /// when this boot began; nil for a clock that is trusted as it is.
    func guardFacts() -> SystemClock.GuardFacts?
}

extension DaemonClock {
    /// The local calendar time now (system time zone; `TZ` honoured).
    public func localTime() -> LocalTime { LocalTime(epochSeconds: epochSeconds()) }
}

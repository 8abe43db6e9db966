import Appliance
import Platform

/// A simulated box's clock (the demo, the torture and soak tests): time is *stepped*. It stands still while
/// the daemon works and jumps to the next deadline when the daemon waits, after a real pause of the jump
/// divided by `speed`. Every timestamp is therefore a deadline the daemon chose, so a run is the same on every
/// machine, and a morning can take 180 s, 9 s or a fraction of a second. The wall clock starts at a set
/// local time, follows the monotonic clock, and can be moved forward between sessions (`advance`).
public final class SteppedClock: DaemonClock {
    public let speed: Double
    /// Real time: the kernel's `CLOCK_MONOTONIC`, or a test's hand-moved one.
    private let realTime: () -> Int64
    private let origin: Int64
    private var current: Int64
    /// The real time that corresponds to `current`, so a wake-up for something else (a control request) does
    /// not restart the pause before the next deadline.
    private var anchorReal: Int64
    private let wallOriginEpoch: Int64
    /// The clock guard's facts when the simulation states them; nil: the simulated clock is trusted.
    private let statedGuardFacts: SystemClock.GuardFacts?

    public init(
        speed: Double, startEpoch: Int64, guardFacts: SystemClock.GuardFacts? = nil,
        realTime: @escaping () -> Int64 = { SystemClock.monotonicMs() }
    ) {
        self.speed = max(1, speed)
        self.realTime = realTime
        origin = realTime()
        current = origin
        anchorReal = origin
        wallOriginEpoch = startEpoch
        statedGuardFacts = guardFacts
    }

    public func monotonicMs() -> Int64 { current }
    public func realMs() -> Int64 { realTime() }
    public func epochSeconds() -> Int64 { wallOriginEpoch + (current - origin) / 1000 }

    public func realWakeMs(for deadlineMs: Int64) -> Int64 {
        anchorReal + max(0, Int64((Double(deadlineMs - current) / speed).rounded(.up)))
    }

    /// What is ready besides the timer is handled at the present instant, before the clock moves on (a key
    /// pressed must be seen down before the moment it is released); otherwise the clock jumps to the deadline
    /// it waited for, once that deadline's real pause is over (not when a real-time timer woke the loop first).
    public func woke(aimedAt deadlineMs: Int64?, timerFired: Bool, othersReady: Bool) -> Bool {
        if othersReady { return false }
        if let deadlineMs, timerFired, realTime() >= realWakeMs(for: deadlineMs) { reached(deadlineMs) }
        return true
    }

    /// The daemon's timer fired for `deadlineMs`: the clock now reads it.
    func reached(_ deadlineMs: Int64) {
        guard deadlineMs > current else { return }
        anchorReal += Int64((Double(deadlineMs - current) / speed).rounded(.up))
        // A daemon slower than the pace does not build up a debt of instant steps.
        anchorReal = max(anchorReal, realTime() - 1000)
        current = deadlineMs
    }

    /// Moves the clock forward by `ms` (between sessions: the next morning, a week later).
    public func advance(ms: Int64) {
        guard ms > 0 else { return }
        current += ms
    }

    public func monotonicMs(atEpoch epoch: Int64) -> Int64 {
        current + Int64((Double(epoch - epochSeconds()) * 1000).rounded(.up))
    }

    /// No kernel timer knows this clock: the reminder's looks are deadlines on it.
    public func makeWallTimer() throws(Errno) -> WallClockTimerFD? { nil }
    public func guardFacts() -> SystemClock.GuardFacts? { statedGuardFacts }
}

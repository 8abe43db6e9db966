import Appliance
import Platform

/// The kernel's clocks with session time running `speed` times faster than real time, for a simulated box
/// whose strap simulator runs as fast (`h10sim --speed`): the wall clock stays the system's.
public final class ScaledClock: DaemonClock {
    public let speed: Double
    private let realOrigin: Int64
    /// The clock guard's facts when the simulation states them; nil asks the kernel.
    private let statedGuardFacts: SystemClock.GuardFacts?

    public init(speed: Double, guardFacts: SystemClock.GuardFacts? = nil) {
        self.speed = max(1, speed)
        realOrigin = SystemClock.monotonicMs()
        statedGuardFacts = guardFacts
    }

    public func monotonicMs() -> Int64 {
        realOrigin + Int64((Double(SystemClock.monotonicMs() - realOrigin) * speed).rounded(.down))
    }

    public func realMs() -> Int64 { SystemClock.monotonicMs() }
    public func epochSeconds() -> Int64 { SystemClock.epochSeconds() }

    public func realWakeMs(for deadlineMs: Int64) -> Int64 {
        realOrigin + Int64((Double(deadlineMs - realOrigin) / speed).rounded(.up))
    }

    public func woke(aimedAt deadlineMs: Int64?, timerFired: Bool, othersReady: Bool) -> Bool { true }

    /// The wall clock runs in real time, the monotonic clock `speed` times faster.
    public func monotonicMs(atEpoch epoch: Int64) -> Int64 {
        monotonicMs() + Int64((Double(epoch - epochSeconds()) * 1000 * speed).rounded(.up))
    }

    public func makeWallTimer() throws(Errno) -> WallClockTimerFD? { try WallClockTimerFD() }
    public func guardFacts() -> SystemClock.GuardFacts? { statedGuardFacts ?? SystemClock.guardFacts() }
}

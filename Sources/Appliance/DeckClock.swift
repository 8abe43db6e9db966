import LocalClock
import Platform
import RecoveryCore

/// The daemon's two clocks (DESIGN §4 "Clock"): a monotonic clock for every timer, and the wall clock
/// with the system time zone for dating mornings and the reminder.
///
/// - `system` (the box): the kernel's `CLOCK_MONOTONIC`, scaled by `speed` for the simulated strap
///   (1 on a real box), and the real wall clock.
/// - `simulated` (the demo, torture and soak tests): time is *stepped*. It stands still while the daemon
///   works and jumps to the next deadline when the daemon waits, after a real pause of the jump divided
///   by `speed`. Every timestamp is therefore a deadline the daemon chose, so a run is the same on every
///   machine, and a morning can take 180 s, 9 s or a fraction of a second. The wall clock starts at a
///   set local time, follows the monotonic clock, and can be moved forward between sessions.
/// Everything the daemon schedules is in this clock's milliseconds.
public final class DeckClock {
    public let speed: Double
    public let isSimulated: Bool
    private let realOrigin: Int64
    private var current: Int64
    /// Simulated: the real time that corresponds to `current`, so a wake-up for something else (a
    /// control request) does not restart the pause before the next deadline.
    private var anchorReal: Int64
    private let wallOriginEpoch: Int64

    /// `simulatedStartEpoch`: the simulated wall clock's start; nil for the system clocks.
    public init(speed: Double, simulatedStartEpoch: Int64?) {
        self.speed = max(1, speed)
        self.realOrigin = SystemClock.monotonicMs()
        self.current = realOrigin
        self.anchorReal = realOrigin
        self.isSimulated = simulatedStartEpoch != nil
        self.wallOriginEpoch = simulatedStartEpoch ?? 0
    }

    /// Milliseconds on the daemon's monotonic clock.
    public func monotonicMs() -> Int64 {
        guard !isSimulated else { return current }
        let real = SystemClock.monotonicMs()
        return realOrigin + Int64((Double(real - realOrigin) * speed).rounded(.down))
    }

    /// The kernel `CLOCK_MONOTONIC` time at which to wake for `deadlineMs` (never early).
    public func realWakeMs(for deadlineMs: Int64) -> Int64 {
        guard isSimulated else {
            return realOrigin + Int64((Double(deadlineMs - realOrigin) / speed).rounded(.up))
        }
        return anchorReal + max(0, Int64((Double(deadlineMs - current) / speed).rounded(.up)))
    }

    /// The daemon's timer fired for `deadlineMs`: a simulated clock now reads it.
    public func reached(_ deadlineMs: Int64) {
        guard isSimulated, deadlineMs > current else { return }
        anchorReal += Int64((Double(deadlineMs - current) / speed).rounded(.up))
        // A daemon slower than the pace does not build up a debt of instant steps.
        anchorReal = max(anchorReal, SystemClock.monotonicMs() - 1000)
        current = deadlineMs
    }

    /// Seconds since the epoch on the wall clock.
    public func epochSeconds() -> Int64 {
        guard isSimulated else { return SystemClock.epochSeconds() }
        return wallOriginEpoch + (current - realOrigin) / 1000
    }

    /// The local calendar time now (system time zone; `TZ` honoured).
    public func localTime() -> LocalTime { LocalTime(epochSeconds: epochSeconds()) }

    /// Moves a simulated clock forward by `ms`. Refused (false) for the system clock.
    public func advance(ms: Int64) -> Bool {
        guard isSimulated, ms > 0 else { return false }
        current += ms
        return true
    }

    /// The monotonic time at which the wall clock will read `epoch` (the reminder's next check).
    public func monotonicMs(atEpoch epoch: Int64) -> Int64 {
        let wallDelta = Double(epoch - epochSeconds()) * 1000
        // The system wall clock runs in real time, a scaled monotonic clock `speed` times faster.
        return monotonicMs() + Int64((isSimulated ? wallDelta : wallDelta * speed).rounded(.up))
    }
}

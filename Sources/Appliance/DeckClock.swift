import Platform
import RecoveryCore

/// The daemon's two clocks (DESIGN §4 "Clock"): a monotonic clock for every timer, and the wall clock
/// with the system time zone for dating mornings and the reminder.
///
/// For simulation the monotonic clock can run `speed` times faster than real time: the session's
/// timers and the virtual strap then run faster together, while RR values stay as they are. With
/// `clock = simulated` the wall clock starts at a set local time, advances with the (scaled) monotonic
/// clock, and can be moved forward on request, so tests can live through many mornings in minutes.
/// Everything the daemon schedules is in this clock's milliseconds; `realMonotonicMs(for:)` turns a
/// deadline back into the kernel's `CLOCK_MONOTONIC` for the timerfd.
public final class DeckClock {
    public let speed: Double
    public let simulatedWall: Bool
    private let realOrigin: Int64
    private var skippedMs: Int64 = 0
    private let wallOriginEpoch: Int64

    /// `startEpoch`: the simulated wall clock's start (ignored for the system wall clock).
    public init(speed: Double, simulatedStartEpoch: Int64?) {
        self.speed = speed
        self.realOrigin = SystemClock.monotonicMs()
        self.simulatedWall = simulatedStartEpoch != nil
        self.wallOriginEpoch = simulatedStartEpoch ?? 0
    }

    /// Milliseconds on the daemon's monotonic clock.
    public func monotonicMs() -> Int64 { virtual(fromReal: SystemClock.monotonicMs()) }

    func virtual(fromReal real: Int64) -> Int64 {
        realOrigin + Int64((Double(real - realOrigin) * speed).rounded(.down)) + skippedMs
    }

    /// The kernel monotonic time at which this clock reaches `virtualMs` (rounded up: never early).
    public func realMonotonicMs(for virtualMs: Int64) -> Int64 {
        realOrigin + Int64((Double(virtualMs - skippedMs - realOrigin) / speed).rounded(.up))
    }

    /// Seconds since the epoch on the wall clock.
    public func epochSeconds() -> Int64 {
        guard simulatedWall else { return SystemClock.epochSeconds() }
        return wallOriginEpoch + (monotonicMs() - realOrigin) / 1000
    }

    /// The local calendar time now (system time zone; `TZ` honoured).
    public func localTime() -> LocalTime { LocalTime(epochSeconds: epochSeconds()) }

    /// Moves a simulated clock forward by `ms` (both the monotonic and the wall clock). Refused for the
    /// system clock.
    public func advance(ms: Int64) -> Bool {
        guard simulatedWall, ms > 0 else { return false }
        skippedMs += ms
        return true
    }

    /// The monotonic deadline at which the wall clock reads `epoch` (for the reminder's next check).
    public func monotonicMs(atEpoch epoch: Int64) -> Int64 {
        let now = monotonicMs()
        let wallDelta = epoch - epochSeconds()
        // The system wall clock runs in real time, the monotonic clock `speed` times faster.
        let scale = simulatedWall ? 1.0 : speed
        return now + Int64((Double(wallDelta) * 1000 * scale).rounded(.up))
    }
}

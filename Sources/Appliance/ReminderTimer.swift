import LocalClock
import Platform
import RecoveryCore

/// When the morning reminder next needs a look: the minute its window opens or closes. On the system clock that
/// is a wall-clock timerfd armed at that minute exactly, which the kernel also wakes when the wall clock is set
/// (a Pi without a real-time clock setting its time after boot). On a simulated clock, which no kernel timer
/// knows, it is a deadline on the daemon's own clock, capped at an hour. It owns the timer and what it is armed
/// for; the daemon tells it the reminder's next check and asks whether it fell due.
final class ReminderTimer {
    /// The longest a simulated clock's look waits: a clock moved by the control socket is noticed within it.
    static let simulatedCapMs: Int64 = 3_600_000

    private let clock: any DaemonClock
    private let logger: Logger
    /// On the system clock only.
    let wallTimer: WallClockTimerFD?
    /// The wall-clock instant `wallTimer` is armed for (ms since the epoch).
    private var wallDueEpochMs: Int64?
    /// On a simulated clock: the next look on the daemon's clock.
    private(set) var dueMs: Int64?

    init(clock: any DaemonClock, logger: Logger) throws(Errno) {
        self.clock = clock
        self.logger = logger
        wallTimer = try clock.makeWallTimer()
    }

    /// Aims at `next` (the reminder's `nextCheck` from the local time now; nil: no look needed). The wall-clock
    /// timer is re-armed only when its minute changes.
    func aim(at next: (date: LocalDate, minute: MinuteOfDay)?) {
        let epochMs = next.map { LocalTime.epochSeconds(of: $0.date, at: $0.minute) * 1000 }
        guard let wallTimer else {
            dueMs = epochMs.map { min(clock.monotonicMs(atEpoch: $0 / 1000), clock.monotonicMs() + Self.simulatedCapMs) }
            return
        }
        guard epochMs != wallDueEpochMs else { return }
        do {
            if let epochMs { try wallTimer.arm(atEpochMs: epochMs) } else { try wallTimer.disarm() }
            wallDueEpochMs = epochMs
        } catch {
            logger.warning("cannot arm the reminder's wall-clock timer: \(error)")
        }
    }

    /// True when a simulated clock's look is due at `nowMs`.
    func isDue(nowMs: Int64) -> Bool { dueMs.map { $0 <= nowMs } ?? false }

    /// The wall-clock timer was readable: whether its minute came or the wall clock was set (nil when it could
    /// not be read). Read, it is no longer armed, so the next `aim` arms it again.
    func acknowledge() -> WallClockTimerFD.Expiry? {
        guard let wallTimer else { return nil }
        do {
            let expiry = try wallTimer.acknowledge()
            wallDueEpochMs = nil
            return expiry
        } catch {
            logger.warning("cannot read the reminder's wall-clock timer: \(error)")
            return nil
        }
    }

    func close() { wallTimer?.close() }
}

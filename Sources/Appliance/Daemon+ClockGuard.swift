import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// The clock guard at the daemon's edge: it gathers the facts (the kernel's synchronisation state, the newest
/// stored day, what this boot already filed) and asks the pure `ClockGuard`.
extension Daemon {
    /// True when a record dated `date` may be filed now. A simulated clock is the test's own and always trusted.
    func clockAllowsFiling(on date: LocalDate) -> Bool {
        guard !clock.isSimulated else { return true }
        // Under the unit's ProtectClock adjtimex is refused; systemd-timesyncd's flag file says the same.
        let synchronised =
            SystemClock.kernelSynchronized()
            ?? (access("/run/systemd/timesync/synchronized", F_OK) == 0 ? true : nil)
        var newest: LocalDate?
        do { newest = try store.lastDay() } catch { logger.warning("cannot read the newest stored day: \(error)") }
        let waitingNewest = waitingRecords.map { record -> LocalDate in
            switch record.content {
            case .morning(let m): m.date
            case .questionnaire(let q): q.date
            }
        }.max()
        if let waitingNewest, waitingNewest > (newest ?? waitingNewest.adding(days: -1)) { newest = waitingNewest }
        return ClockGuard.mayFile(
            on: date, synchronised: synchronised, newestStored: newest, filedThisBoot: dayFiledThisBoot(newest: newest))
    }

    /// The newest stored day when it was recorded during this boot, by this boot's clock (a check-in over
    /// SSH or on the keypad, then its morning): the box meant that date.
    private func dayFiledThisBoot(newest: LocalDate?) -> LocalDate? {
        guard let newest, let booted = SystemClock.bootEpochSeconds() else { return nil }
        do {
            guard let recorded = try store.lastRecordedAt(on: newest), recorded >= booted else { return nil }
        } catch {
            logger.warning("cannot read when \(newest.iso) was recorded: \(error)")
            return nil
        }
        return newest
    }

    /// A GO or `measure` that the guard refuses: the sentence and the low beep, nothing started.
    func refuseForClock(now: Int64) {
        logger.warning(ClockGuard.sentence, ["day": routine.day.today.iso])
        perform(.sound(.refused), now: now)
        perform(.say(ClockGuard.sentence), now: now)
    }
}

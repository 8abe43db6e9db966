import Platform
import RecoveryCore
import Store

/// The clock guard at the daemon's edge: it gathers the facts (the kernel's synchronisation state, the newest
/// stored day, what this boot already filed) and asks the pure `ClockGuard`.
extension Daemon {
    /// True when a record dated `date` may be filed now. A simulated clock is the test's own and trusted,
    /// unless the test states the kernel's facts too.
    func clockAllowsFiling(on date: LocalDate) -> Bool {
        let facts: SystemClock.GuardFacts
        if let statedClockFacts {
            facts = statedClockFacts
        } else {
            guard !clock.isSimulated else { return true }
            facts = SystemClock.guardFacts()
        }
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
            on: date, synchronised: facts.synchronised, newestStored: newest,
            filedThisBoot: dayFiledThisBoot(newest: newest, booted: facts.bootEpochSeconds))
    }

    /// The newest stored day when it was recorded during this boot, by this boot's clock (a check-in over
    /// SSH or on the keypad, then its morning): the box meant that date.
    private func dayFiledThisBoot(newest: LocalDate?, booted: Int64?) -> LocalDate? {
        guard let newest, let booted else { return nil }
        do {
            guard let recorded = try store.lastRecordedAt(on: newest), recorded >= booted else { return nil }
        } catch {
            logger.warning("cannot read when \(newest.iso) was recorded: \(error)")
            return nil
        }
        return newest
    }

    /// True when a GO (or `measure`) would start a session: idle, or a fault's code showing (GO clears it and
    /// starts). Only then does the guard ask; a session already running was dated when it started.
    var goWouldStart: Bool { routine.session.phase == .idle || routine.session.phase == .showingFault }

    /// A GO or `measure` that the guard refuses: the clock's own red code, the low beep and the sentence
    /// (the routine's `.clockRefused`), nothing started.
    func refuseForClock(now: Int64) {
        logger.warning(ClockGuard.sentence, ["day": routine.day.today.iso])
        process(.clockRefused, now: now)
    }
}

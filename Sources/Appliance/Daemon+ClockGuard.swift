import Platform
import RecoveryCore
import Store

/// The clock guard at the daemon's edge: it gathers the facts (the kernel's synchronisation state, the newest
/// stored day, what this boot already filed) and asks the pure `ClockGuard`.
extension Daemon {
    /// True when a record dated `date` may be filed now. A clock with no facts to ask (a simulated box's own)
    /// is trusted.
    func clockAllowsFiling(on date: LocalDate) -> Bool {
        guard let facts = clock.guardFacts() else { return true }
        var newest: LocalDate?
        do { newest = try store.lastDay() } catch { logger.warning("cannot read the newest stored day: \(error)") }
        let waitingNewest = filing.pending.map(\.date).max()
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

    /// What the clock guard is asked about: a session that GO or `measure` would start (dated today), or a
    /// keypad check-in to file (dated its day).
    enum DatedStep: Equatable {
        case go
        case measure
        case file(LocalDate)
    }

    /// The one place the daemon asks the clock guard before the routine starts a session or files a record
    /// (RecoveryCore `ClockGuard`). True when refused: the warning is logged and the routine is told
    /// `.clockRefused` (the clock's own red code, the low beep and the sentence), so nothing starts or is filed.
    func clockRefuses(_ step: DatedStep, now: Int64) -> Bool {
        let date: LocalDate
        switch step {
        case .go, .measure:
            // Only when a session would start: a session already running was dated when it started. A GO
            // while a questionnaire is being keyed is left to the routine.
            guard goWouldStart, step != .go || routine.entry == nil else { return false }
            date = routine.day.today
        case .file(let day):
            date = day
        }
        guard !clockAllowsFiling(on: date) else { return false }
        logger.warning(ClockGuard.sentence, ["day": date.iso])
        process(.clockRefused, now: now)
        return true
    }

    /// True when a GO (or `measure`) would start a session: idle, or a fault's code showing (GO clears it and
    /// starts).
    private var goWouldStart: Bool { routine.session.phase == .idle || routine.session.phase == .showingFault }
}

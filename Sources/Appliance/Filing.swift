import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Filing: a finished morning or a keypad questionnaire goes to the spool first (durable on disk), then
/// into the database. When the database refuses (another process holds its lock, the disk is full, the
/// file was deleted), the record waits in the spool and is offered again with back-off; the person still
/// gets the readout, and the journal and `status` say it is saved and waiting for the database. Nothing
/// here waits longer than the store's short busy timeout (`Daemon.storeBusyTimeoutMs`).
///
/// The daemon owns one, and asks it what waits (`pending`) instead of reading the spool: the list is
/// read from the spool at start and again by each filing round (the CLI's `delete` removes spooled
/// records of the days it deletes, and the round must not bring them back), and by `reload()` when the
/// daemon is told the store changed.
final class Filing {
    /// A record not yet in the database: in the spool, or only in memory when even the spool refused it
    /// (a full disk); memory is tried against the spool again at each retry.
    struct Record: Hashable {
        var content: MorningSpool.Entry.Content
        /// Seconds since the Unix epoch when the record was made (its `recorded_at` in the database).
        var recordedAt: Int64

        var date: LocalDate { content.date }
    }

    /// Where a record stands once `file` returns.
    enum Outcome: Equatable {
        case inDatabase
        /// Kept (in the spool, or in memory), waiting for the database; why, as one sentence.
        case waiting(String)
    }

    /// What a filing round did.
    struct Round {
        /// The records the database took (or already held), oldest first.
        var filed: [Record]
        /// True when nothing waits any more.
        var isClear: Bool
    }

    /// The first retry after a refusal, then doubling up to the cap (real time: a lock or a full disk
    /// clears in real seconds whatever the session's speed).
    static let retryFirstMs: Int64 = 500
    static let retryMaximumMs: Int64 = 15_000

    let store: Store
    /// Where records wait until the database has them (nil when the directory cannot be made: records then
    /// wait in memory only, and the journal says so).
    let spool: MorningSpool?
    private let logger: Logger

    /// Everything not yet in the database, oldest first.
    private(set) var pending: [Record] = []
    /// Records the spool could not take either (a full disk), tried again at each retry.
    private var heldInMemory: [Record] = []
    /// Why records are waiting, while they are.
    private(set) var reason: String?
    /// The next retry of what waits, on the real monotonic clock, and the back-off behind it.
    private(set) var nextRetryDueRealMs: Int64?
    private(set) var backoffMs: Int64 = 0
    /// How many records waited after the last filing round (what `status` shows).
    private(set) var waitingCount = 0
    /// The spool's unreadable files the journal has already named.
    private var reportedUnreadable: Set<String> = []

    /// Opens the spool at `spoolDirectory` (creating it) and reads what waits in it from an earlier run.
    init(store: Store, spoolDirectory: String, logger: Logger) {
        self.store = store
        self.logger = logger
        do { spool = try MorningSpool(directory: spoolDirectory) } catch {
            logger.error("no spool for finished mornings (\(error)); they wait in memory if the database refuses")
            spool = nil
        }
        reload()
    }

    /// The records waiting for the day `date`, oldest first.
    func pending(on date: LocalDate) -> [Record] { pending.filter { $0.date == date } }

    /// Reads the spool again: another program (the CLI's `delete`) may have removed records from it.
    func reload() {
        let read = spool?.entries()
        // Once per file: a planted FIFO, link or foreign file is skipped at every reload, said once.
        for refusal in read?.unreadable ?? [] where !reportedUnreadable.contains(refusal) {
            reportedUnreadable.insert(refusal)
            logger.warning("a file in the spool was skipped, not read: \(refusal)")
        }
        let spooled = read?.entries.map { Record(content: $0.content, recordedAt: $0.recordedAt) }
        pending = ((spooled ?? []) + heldInMemory).sorted { $0.recordedAt < $1.recordedAt }
    }

    // MARK: Filing

    /// Keeps a finished morning or a keypad questionnaire in the spool (or, failing that, in memory), then
    /// offers everything waiting to the database, and says so in the journal.
    @discardableResult
    func file(_ content: MorningSpool.Entry.Content, recordedAt: Int64, nowRealMs: Int64) -> Outcome {
        let record = Record(content: content, recordedAt: recordedAt)
        heldInMemory.append(record)
        fileWaiting(nowRealMs: nowRealMs)
        let outcome: Outcome = pending.contains(record) ? .waiting(reason ?? "") : .inDatabase
        switch (content, outcome) {
        case (.morning(let morning), _):
            // The journal keeps no health facts at the default level (`delete` cannot reach it): which day,
            // its quality and the orthostatic result go to debug only.
            if case .waiting(let why) = outcome {
                logger.warning("a morning was saved, waiting for the database: \(why)")
            } else {
                logger.notice("a morning was saved")
            }
            logger.debug(
                "morning saved",
                [
                    "day": morning.date.iso, "quality": "\(morning.quality)",
                    "orthostatic": morning.orthostaticStatus.rawValue,
                ])
        case (.questionnaire, .inDatabase):
            logger.notice("a questionnaire was saved from the keypad")
        case (.questionnaire, .waiting(let why)):
            logger.warning("a questionnaire was saved, waiting for the database: \(why)")
        }
        return outcome
    }

    /// Offers what waits to the database when its retry fell due (real time); nil when none did.
    func retry(nowRealMs: Int64) -> Round? {
        guard let due = nextRetryDueRealMs, nowRealMs >= due else { return nil }
        return fileWaiting(nowRealMs: nowRealMs)
    }

    /// Offers what waited from an earlier run, if anything does (at start).
    func fileEarlierRun(nowRealMs: Int64) {
        guard let spool, !spool.isEmpty else { return }
        logger.notice("mornings from an earlier run wait in \(spool.directory): filing them")
        fileWaiting(nowRealMs: nowRealMs)
    }

    /// Offers what waits to the database: memory to the spool first, then the spool to the database, then
    /// what the spool could not take straight to the database. Arms the next retry when anything is left.
    @discardableResult
    private func fileWaiting(nowRealMs: Int64) -> Round {
        var reasons: [String] = []
        var filed: [Record] = []
        var spooled: [Record] = []
        if let spool {
            heldInMemory = heldInMemory.filter { record in
                do {
                    try spool.keep(record.content, recordedAt: record.recordedAt)
                    return false
                } catch {
                    reasons.append("the spool refused it too (\(error))")
                    return true
                }
            }
            let entries = spool.entries().entries
            var gone: Set<String> = []
            for outcome in spool.file(entries, into: store) {
                switch outcome {
                case .filed(let entry):
                    if nextRetryDueRealMs != nil {
                        logger.notice("a waiting \(entry.kind) reached the database")
                    }
                    gone.insert(entry.name)
                    filed.append(Record(content: entry.content, recordedAt: entry.recordedAt))
                case .superseded(let entry):
                    logger.notice(
                        "a waiting \(entry.kind) was dropped: the database holds a later one for its day")
                    gone.insert(entry.name)
                case .refused(_, let error):
                    reasons.insert(Filing.refusalSentence(error), at: 0)
                }
            }
            spooled = entries.filter { !gone.contains($0.name) }.map {
                Record(content: $0.content, recordedAt: $0.recordedAt)
            }
        }
        // Without a spool on disk: straight to the database, in order, stopping at the first refusal.
        var remaining: [Record] = []
        for record in heldInMemory {
            guard remaining.isEmpty else {
                remaining.append(record)
                continue
            }
            do {
                switch record.content {
                case .morning(let m): try store.saveMorning(m, recordedAt: record.recordedAt)
                case .questionnaire(let q): try store.saveQuestionnaire(q, recordedAt: record.recordedAt)
                }
                filed.append(record)
            } catch {
                reasons.insert(Filing.refusalSentence(error), at: 0)
                remaining.append(record)
            }
        }
        heldInMemory = remaining
        pending = (spooled + heldInMemory).sorted { $0.recordedAt < $1.recordedAt }
        waitingCount = pending.count
        if !pending.isEmpty {
            reason = reasons.first ?? "the database refused the write"
            backoffMs = nextRetryDueRealMs == nil ? Filing.retryFirstMs : min(backoffMs * 2, Filing.retryMaximumMs)
            nextRetryDueRealMs = nowRealMs + backoffMs
        } else {
            if nextRetryDueRealMs != nil { logger.notice("nothing waits for the database any more") }
            reason = nil
            nextRetryDueRealMs = nil
            // A record that replaced an earlier one (a remeasured morning) must not leave the old one in the
            // log's older frames or the file's old pages: empty the log now (one checkpoint a save; a reader
            // elsewhere makes it wait for the next).
            _ = try? store.scrubLog(withinMs: 0)
        }
        return Round(filed: filed.sorted { $0.recordedAt < $1.recordedAt }, isClear: pending.isEmpty)
    }

    /// One sentence for why the database refused, with what to do.
    static func refusalSentence(_ error: StoreError) -> String {
        if error.isBusy {
            return "another program holds the database's write lock (\(error.message)); it is tried again shortly"
        }
        return "\(error)"
    }

    // MARK: What the person sees

    /// Today's facts as the person lives them: what the database holds, with what waits for it on top.
    func day(_ context: DayContext) -> DayContext {
        var context = context
        for record in pending(on: context.today) {
            switch record.content {
            case .morning: context.measured = true
            case .questionnaire(let q): context.questionnaire = q
            }
        }
        return context
    }

    /// The history the readout after the morning of `date` reads (`PanelReadout.historyStart(forMorningOn:)`
    /// through `date`): the stored days with what waits for the database on top, one record a day in date
    /// order; when the database cannot be read at all, what waits alone (the light then says what this
    /// morning can say by itself).
    func history(forMorningOn date: LocalDate) -> [DayRecord] {
        let from = PanelReadout.historyStart(forMorningOn: date)
        var days: [DayRecord]
        do { days = try store.days(from: from, through: date) } catch {
            logger.warning("cannot read the days before \(date.iso) for the readout: \(error)")
            days = []
        }
        for record in pending where record.date >= from && record.date <= date {
            let index =
                days.firstIndex { $0.date == record.date }
                ?? {
                    days.append(DayRecord(date: record.date))
                    return days.count - 1
                }()
            switch record.content {
            case .morning(let m): days[index].measurement = m
            case .questionnaire(let q): days[index].questionnaire = q
            }
        }
        days.sort { $0.date < $1.date }
        return days
    }

    // MARK: Shutting down

    /// Says in the journal what is left waiting, and removes the spool directory when nothing is.
    func end() {
        if !heldInMemory.isEmpty {
            logger.error(
                "\(heldInMemory.count) record(s) that neither the spool nor the database would take are lost at "
                    + "shutdown: \(reason ?? "")")
        } else if let spool, !spool.isEmpty {
            logger.warning("records still wait for the database in \(spool.directory); the next start files them")
        } else if let spool {
            // An empty spool leaves no trace (the demo's temporary box is removed whole); the next start makes it.
            rmdir(spool.directory)
        }
    }
}

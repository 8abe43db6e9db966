import Platform
import RecoveryCore
import Store

/// Filing: a finished morning or a keypad questionnaire goes to the spool first (durable on disk), then
/// into the database. When the database refuses (another process holds its lock, the disk is full, the
/// file was deleted), the record waits in the spool and is offered again with back-off; the person still
/// gets the readout, and the journal and `status` say it is saved and waiting for the database. The loop
/// never waits longer than the store's short busy timeout (`Daemon.storeBusyTimeoutMs`).
extension Daemon {
    /// A record not yet in the database: in the spool, or only in memory when even the spool refused it
    /// (a full disk); memory is tried against the spool again at each retry.
    struct WaitingRecord {
        var content: MorningSpool.Entry.Content
        var recordedAt: Int64
    }

    /// The first retry after a refusal, then doubling up to the cap (real time: a lock or a full disk
    /// clears in real seconds whatever the session's speed).
    static let spoolRetryFirstMs: Int64 = 500
    static let spoolRetryMaximumMs: Int64 = 15_000

    /// Files a finished morning; returns the readout to show either way.
    func fileMorning(_ morning: MorningMeasurement) -> PanelReadout {
        let filed = file(.morning(morning))
        let day = morning.date.iso
        let quality = "\(morning.quality)"
        let orthostatic = morning.orthostaticStatus.rawValue
        // The journal keeps no health facts at the default level (`delete` cannot reach it): which day,
        // its quality and the orthostatic result go to debug only.
        if filed {
            logger.notice("a morning was saved")
        } else {
            logger.warning("a morning was saved, waiting for the database: \(waitingReason ?? "")")
        }
        logger.debug("morning saved", ["day": day, "quality": quality, "orthostatic": orthostatic])
        return readoutIncludingWaiting(for: morning.date)
    }

    /// Files a keypad questionnaire.
    func fileQuestionnaire(_ questionnaire: Questionnaire) {
        if file(.questionnaire(questionnaire)) {
            logger.notice("a questionnaire was saved from the keypad")
        } else {
            logger.warning("a questionnaire was saved, waiting for the database: \(waitingReason ?? "")")
        }
    }

    /// Keeps `content` in the spool (or, failing that, in memory), then offers everything waiting to the
    /// database. True when the record is in the database now.
    private func file(_ content: MorningSpool.Entry.Content) -> Bool {
        let record = WaitingRecord(content: content, recordedAt: clock.epochSeconds())
        heldInMemory.append(record)
        fileWaiting()
        return !isWaiting(record)
    }

    private func isWaiting(_ record: WaitingRecord) -> Bool {
        waitingRecords.contains { $0.content == record.content && $0.recordedAt == record.recordedAt }
    }

    /// Everything not yet in the database, oldest first.
    var waitingRecords: [WaitingRecord] {
        let spooled = spool?.entries().entries.map { WaitingRecord(content: $0.content, recordedAt: $0.recordedAt) }
        return ((spooled ?? []) + heldInMemory).sorted { $0.recordedAt < $1.recordedAt }
    }

    /// Offers what waits to the database: memory to the spool first, then the spool to the database, then
    /// what the spool could not take straight to the database. Arms the next retry when anything is left.
    func fileWaiting() {
        var reasons: [String] = []
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
            for outcome in spool.file(into: store) {
                switch outcome {
                case .filed(let entry):
                    if spoolRetryDueRealMs != nil {
                        logger.notice("a waiting \(entry.kind) reached the database")
                    }
                case .superseded(let entry):
                    logger.notice(
                        "a waiting \(entry.kind) was dropped: the database holds a later one for its day")
                case .refused(_, let error):
                    reasons.insert(Daemon.refusalSentence(error), at: 0)
                }
            }
        }
        // Without a spool on disk: straight to the database, in order, stopping at the first refusal.
        var remaining: [WaitingRecord] = []
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
            } catch {
                reasons.insert(Daemon.refusalSentence(error), at: 0)
                remaining.append(record)
            }
        }
        heldInMemory = remaining
        waitingCount = waitingRecords.count
        let waiting = waitingCount > 0
        if waiting {
            waitingReason = reasons.first ?? "the database refused the write"
            spoolBackoffMs = spoolRetryDueRealMs == nil
                ? Daemon.spoolRetryFirstMs : min(spoolBackoffMs * 2, Daemon.spoolRetryMaximumMs)
            spoolRetryDueRealMs = SystemClock.monotonicMs() + spoolBackoffMs
        } else {
            if spoolRetryDueRealMs != nil { logger.notice("nothing waits for the database any more") }
            waitingReason = nil
            spoolRetryDueRealMs = nil
            // A record that replaced an earlier one (a remeasured morning) must not leave the old one in the
            // log's older frames or the file's old pages: empty the log now (one checkpoint a save; a reader
            // elsewhere makes it wait for the next).
            _ = try? store.scrubLog(withinMs: 0)
        }
        changed = true
    }

    /// Runs a retry that fell due (real time).
    func retryWaitingIfDue() {
        guard let due = spoolRetryDueRealMs, SystemClock.monotonicMs() >= due else { return }
        fileWaiting()
        guard spoolRetryDueRealMs == nil else { return }
        // The day's facts may have changed now that the database has them.
        refreshDay(now: clock.monotonicMs())
    }

    /// One sentence for why the database refused, with what to do.
    static func refusalSentence(_ error: StoreError) -> String {
        if error.isBusy {
            return "another program holds the database's write lock (\(error.message)); it is tried again shortly"
        }
        return "\(error)"
    }

    /// Today's facts as the person lives them: what the database holds, with what waits for it on top.
    func dayIncludingWaiting(_ context: DayContext) -> DayContext {
        var context = context
        for record in waitingRecords where recordDate(record) == context.today {
            switch record.content {
            case .morning: context.measured = true
            case .questionnaire(let q): context.questionnaire = q
            }
        }
        return context
    }

    /// The readout for `date` from the stored days with what waits on top; when the database cannot be read
    /// at all, from the waiting records alone (the light then says what this morning can say by itself).
    func readoutIncludingWaiting(for date: LocalDate) -> PanelReadout {
        let from = date.adding(days: -(Baselines.normDays + 1))
        var days: [DayRecord]
        do { days = try store.days(from: from, through: date) } catch {
            logger.warning("cannot read the days before \(date.iso) for the readout: \(error)")
            days = []
        }
        for record in waitingRecords {
            let day = recordDate(record)
            guard day >= from && day <= date else { continue }
            let index = days.firstIndex { $0.date == day } ?? {
                days.append(DayRecord(date: day))
                return days.count - 1
            }()
            switch record.content {
            case .morning(let m): days[index].measurement = m
            case .questionnaire(let q): days[index].questionnaire = q
            }
        }
        days.sort { $0.date < $1.date }
        // The edges the person chose (`recoverydeck settings --band-edges`); the spec's when unreadable.
        let edges = (try? store.lightEdges()) ?? .spec
        let grade = days.last { $0.date == date }?.measurement.flatMap { $0.quality == .ok ? $0.hrv?.fairNote : nil }
        return PanelReadout(Baselines.readout(days: days, today: date, edges: edges), grade: grade)
    }

    private func recordDate(_ record: WaitingRecord) -> LocalDate {
        switch record.content {
        case .morning(let m): m.date
        case .questionnaire(let q): q.date
        }
    }
}

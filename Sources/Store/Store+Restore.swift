import RecoveryCore

extension Store {
    /// True when the file holds none of the person's data: no day, setting, analytics event or experiment. The
    /// morning reminder the daemon gave (its `reminder_shown_on` setting and `reminder_shown` event) is the box's own
    /// bookkeeping, written at every boot after the reminder's time: it does not make a new box one that "already
    /// holds data", and a restore replaces it like every setting and event.
    public func holdsNoData() throws(StoreError) -> Bool {
        let sql = """
            SELECT (SELECT count(*) FROM questionnaire) + (SELECT count(*) FROM measurement)
                + (SELECT count(*) FROM imported_day) + (SELECT count(*) FROM analytics_event WHERE kind <> ?2)
                + (SELECT count(*) FROM setting WHERE key <> ?1) + (SELECT count(*) FROM experiment)
            """
        let bookkeeping: [SQLValue] = [
            .text(SettingKey.reminderShownOn.rawValue), .text(AnalyticsKind.reminderShown.rawValue),
        ]
        return try database.prepare(sql).rows(bookkeeping) { $0.int(0) ?? 0 }.first == 0
    }

    /// Brings the database back to an export (`ExportDocument`): every day as it was — check-in with habits,
    /// caffeine, meal time and note; measurement with raw RR and BPM samples; a box day stays a box day and
    /// an imported day stays imported — and, from a full export, every setting (habit list, display name,
    /// paired strap…), the analytics events in their order and the experiments with their schedules and stops.
    /// From an export that is not full, the habit list is restored and the rest is absent from the file.
    ///
    /// One transaction: it refuses (and changes nothing) when the database holds data and `replace` is
    /// false, or when a value is one the schema refuses. Replacing deletes what was there first; deleted
    /// content is zeroed (`secure_delete`) and the write-ahead log is truncated afterwards.
    public func restore(_ document: ExportDocument, replace: Bool) throws(StoreError) {
        var items: [ExportItem] = document.days.map { .day($0) }
        if document.full {
            items.append(.settings(document.settings.sorted { $0.key < $1.key }))
            items += document.analytics.map { .event($0) } + document.experiments.map { .experiment($0) }
        }
        let header = ExportHeader(
            protocolVersion: ExportDocument.protocolVersion, generatedAt: document.generatedAt, full: document.full,
            habits: document.habits)
        var remaining = items[...]
        do {
            _ = try restore(replace: replace, generatedAt: document.generatedAt) { () throws(RestoreError) in
                remaining.popFirst()
            } header: { () throws(RestoreError) in header }
        } catch {
            switch error {
            case .store(let e): throw e
            case .document(let e): throw StoreError.invalid(e.description)
            }
        }
    }

    /// The same as `restore(_:replace:)`, from a document as it streams in: each element is checked and
    /// written as it arrives, inside one transaction that a bad element anywhere in the file rolls back, so
    /// memory follows the largest element, never the file.
    public func restore(_ reader: inout ExportDocumentReader, replace: Bool) throws(RestoreError) -> RestoreSummary {
        var source = reader
        defer { reader = source }
        return try restore(replace: replace, generatedAt: nil) { () throws(RestoreError) in
            do throws(ExportError) { return try source.next() } catch { throw .document(error) }
        } header: { () throws(RestoreError) in
            do throws(ExportError) { return try source.header() } catch { throw .document(error) }
        } generatedAtSoFar: {
            source.generatedAt
        }
    }

    private func restore(
        replace: Bool, generatedAt known: Int64?, next: () throws(RestoreError) -> ExportItem?,
        header: () throws(RestoreError) -> ExportHeader, generatedAtSoFar: () -> Int64? = { nil }
    ) throws(RestoreError) -> RestoreSummary {
        var summary = RestoreSummary()
        // A document failure inside the transaction is carried out past its rollback.
        var failure: RestoreError?
        do throws(StoreError) {
            try database.transaction { () throws(StoreError) in
                if !replace {
                    guard try holdsNoData() else {
                        throw .invalid("the database already holds data; restoring over it needs --replace")
                    }
                }
                for table in [
                    "habit_tag", "questionnaire", "measurement", "imported_day", "analytics_event", "setting",
                    "experiment_morning", "experiment",
                ] {
                    try database.run("DELETE FROM \(table)")
                }
                var recomputeRMSSD = false
                // Days written before the document said when it was made get that instant at the end.
                var writtenWithoutInstant = false
                // An export holds each day once; a second copy would be merged into a day neither describes.
                var days: Set<LocalDate> = []
                while true {
                    let item: ExportItem?
                    do throws(RestoreError) { item = try next() } catch {
                        failure = error
                        throw .invalid("the export is refused")
                    }
                    guard let item else { break }
                    switch item {
                    case .day(let day):
                        guard days.insert(day.date).inserted else {
                            failure = .document(
                                ExportError(path: "days", reason: "give \(day.date.iso) twice; an export holds each day once"))
                            throw .invalid("the export is refused")
                        }
                        let instant = known ?? generatedAtSoFar()
                        if instant == nil { writtenWithoutInstant = true }
                        // The export does not carry when rows were written; the instants it does carry stand in.
                        if let q = day.questionnaire { try writeQuestionnaire(q, recordedAt: instant ?? 0) }
                        if let m = day.measurement {
                            try writeMeasurement(m, recordedAt: m.startedAtEpoch + m.durationMs / 1000)
                            summary.rrIntervals += m.rawRR.count
                            if m.hrv?.rmssdMethod == .acceptedList { recomputeRMSSD = true }
                        }
                        if day.imported {
                            try database.run(
                                "INSERT INTO imported_day (day, source, imported_at) VALUES (?1, 'restore', ?2)",
                                [.text(day.date.iso), .integer(instant ?? 0)])
                        }
                        summary.days += 1
                    case .settings(let pairs):
                        for (key, value) in pairs { try setSetting(SettingKey(rawValue: key), value) }
                        summary.settings = pairs.count
                    case .event(let event):
                        try writeEvent(event)
                        summary.analytics += 1
                    case .experiment(let experiment):
                        _ = try writeExperiment(experiment, keepingID: true)
                        summary.experiments += 1
                    }
                }
                let head: ExportHeader
                do throws(RestoreError) { head = try header() } catch {
                    failure = error
                    throw .invalid("the export is refused")
                }
                summary.full = head.full
                if writtenWithoutInstant {
                    try database.run("UPDATE questionnaire SET recorded_at = ?1", [.integer(head.generatedAt)])
                    try database.run("UPDATE imported_day SET imported_at = ?1", [.integer(head.generatedAt)])
                }
                // A version 1 export carries rMSSD over the accepted list; its raw RR give today's value, so
                // the restored mornings compare like with like in the baselines (spec §5.1, migration 0002).
                if recomputeRMSSD { try RMSSDRecomputation.apply(database) }
                if !head.full {
                    // Read before the document said it is not full: not part of it.
                    for table in ["analytics_event", "setting", "experiment_morning", "experiment"] {
                        try database.run("DELETE FROM \(table)")
                    }
                    (summary.settings, summary.analytics, summary.experiments) = (0, 0, 0)
                    if head.habits != Questionnaire.starterHabits { try setHabitList(head.habits) }
                }
            }
        } catch {
            throw failure ?? .store(error)
        }
        try? truncateLog()
        return summary
    }
}

/// Why a restore changed nothing: the document was refused, or the database refused a value.
public enum RestoreError: Error, Sendable {
    case document(ExportError)
    case store(StoreError)
}

/// What a restore brought back, for the sentence that says so.
public struct RestoreSummary: Hashable, Sendable {
    public var days = 0
    public var rrIntervals = 0
    public var settings = 0
    public var analytics = 0
    public var experiments = 0
    public var full = false
}

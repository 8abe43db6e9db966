import RecoveryCore

extension Store {
    /// True when the file holds none of the person's data: no day, setting or analytics event.
    public func holdsNoData() throws(StoreError) -> Bool {
        let sql = """
            SELECT (SELECT count(*) FROM questionnaire) + (SELECT count(*) FROM measurement)
                + (SELECT count(*) FROM imported_day) + (SELECT count(*) FROM analytics_event)
                + (SELECT count(*) FROM setting)
            """
        return try database.prepare(sql).rows { $0.int(0) ?? 0 }.first == 0
    }

    /// Brings the database back to an export (`ExportDocument`): every day as it was — check-in with habits,
    /// caffeine, meal time and note; measurement with raw RR and BPM samples; a box day stays a box day and
    /// an imported day stays imported — and, from a full export, every setting (habit list, display name,
    /// paired strap…) and the analytics events in their order. From an export that is not full, the habit
    /// list is restored and the rest is absent from the file.
    ///
    /// One transaction: it refuses (and changes nothing) when the database holds data and `replace` is
    /// false, or when a value is one the schema refuses. Replacing deletes what was there first; deleted
    /// content is zeroed (`secure_delete`) and the write-ahead log is truncated afterwards.
    public func restore(_ document: ExportDocument, replace: Bool) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            if !replace {
                guard try holdsNoData() else {
                    throw .invalid("the database already holds data; restoring over it needs --replace")
                }
            }
            for table in ["habit_tag", "questionnaire", "measurement", "imported_day", "analytics_event", "setting"] {
                try database.run("DELETE FROM \(table)")
            }
            // The export does not carry when rows were written; the instants it does carry stand in.
            for day in document.days {
                if let q = day.questionnaire { try writeQuestionnaire(q, recordedAt: document.generatedAt) }
                if let m = day.measurement {
                    try writeMeasurement(m, recordedAt: m.startedAtEpoch + m.durationMs / 1000)
                }
                if day.imported {
                    try database.run(
                        "INSERT INTO imported_day (day, source, imported_at) VALUES (?1, 'restore', ?2)",
                        [.text(day.date.iso), .integer(document.generatedAt)])
                }
            }
            // A version 1 export carries rMSSD over the accepted list; its raw RR give today's value, so
            // the restored mornings compare like with like in the baselines (spec §5.1, migration 0002).
            if document.days.contains(where: { $0.measurement?.hrv?.rmssdMethod == .acceptedList }) {
                try RMSSDRecomputation.apply(database)
            }
            if document.full {
                for (key, value) in document.settings.sorted(by: { $0.key < $1.key }) {
                    try setSetting(SettingKey(rawValue: key), value)
                }
                for event in document.analytics { try writeEvent(event) }
            } else if document.habits != Questionnaire.starterHabits {
                try setHabitList(document.habits)
            }
        }
        try truncateLog()
    }
}

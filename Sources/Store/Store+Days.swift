import RecoveryCore

extension Store {
    /// Everything stored for `date`; the parts that are absent are nil (missing stays missing).
    public func day(_ date: LocalDate) throws(StoreError) -> DayRecord {
        try days(from: date, through: date).first ?? DayRecord(date: date)
    }

    /// The days from `from` through `through` (inclusive) that hold a questionnaire, a measurement or an
    /// import marker, oldest first. Days with nothing stored are left out, never filled in.
    public func days(from: LocalDate, through: LocalDate) throws(StoreError) -> [DayRecord] {
        guard from <= through else { return [] }
        let questionnaires = try questionnaires(from: from, through: through)
        let measurements = try measurements(from: from, through: through)
        let imported = Set(
            try database.prepare("SELECT day FROM imported_day WHERE day BETWEEN ?1 AND ?2").rows(
                [.text(from.iso), .text(through.iso)]
            ) { (row) throws(StoreError) in try Store.date(row, 0) })
        let dates = Set(questionnaires.keys).union(measurements.keys).union(imported).sorted()
        return dates.map {
            DayRecord(
                date: $0, questionnaire: questionnaires[$0], measurement: measurements[$0],
                imported: imported.contains($0))
        }
    }

    /// The complete days in the range (spec §7.2, `DayRecord.isComplete`), oldest first: what the
    /// baselines count towards the 14 they need.
    public func completeDays(from: LocalDate, through: LocalDate) throws(StoreError) -> [DayRecord] {
        try days(from: from, through: through).filter(\.isComplete)
    }

    /// Every stored day, oldest first.
    public func allDays() throws(StoreError) -> [DayRecord] {
        guard let first = try firstDay(), let last = try lastDay() else { return [] }
        return try days(from: first, through: last)
    }

    /// The earliest day with anything stored.
    public func firstDay() throws(StoreError) -> LocalDate? { try boundaryDay("MIN") }

    /// The latest day with anything stored.
    public func lastDay() throws(StoreError) -> LocalDate? { try boundaryDay("MAX") }

    private func boundaryDay(_ function: String) throws(StoreError) -> LocalDate? {
        let sql = """
            SELECT \(function)(day) FROM (SELECT day FROM questionnaire UNION ALL SELECT day FROM measurement
                UNION ALL SELECT day FROM imported_day)
            """
        return try database.prepare(sql).rows { $0.text(0).flatMap { LocalDate(iso: $0) } }.first ?? nil
    }

    /// Writes days that came from a history import, all in one transaction: each record's
    /// questionnaire and measurement (when present) replace what the day held, and the day is marked
    /// imported from `source`. No analytics events are implied: the box did not measure these mornings.
    public func saveImportedDays(_ records: [DayRecord], source: String, recordedAt: Int64) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            for record in records {
                if let q = record.questionnaire {
                    guard q.date == record.date else { throw .invalid("a questionnaire is filed under another day") }
                    try writeQuestionnaire(q, recordedAt: recordedAt)
                }
                if let m = record.measurement {
                    guard m.date == record.date else { throw .invalid("a measurement is filed under another day") }
                    try writeMeasurement(m, recordedAt: recordedAt)
                }
                try database.run(
                    """
                    INSERT INTO imported_day (day, source, imported_at) VALUES (?1, ?2, ?3)
                    ON CONFLICT (day) DO UPDATE SET source = excluded.source, imported_at = excluded.imported_at
                    """,
                    [.text(record.date.iso), .text(source), .integer(recordedAt)])
            }
        }
    }
}

import CSQLite
import RecoveryCore

extension Store {
    /// Deletes everything stored for one day (questionnaire, habit tags, measurement with its raw RR,
    /// import marker, the day's analytics events) in one transaction, then flushes the write-ahead log
    /// so the old pages do not linger in it. Returns false when the day held nothing.
    @discardableResult
    public func deleteDay(_ date: LocalDate) throws(StoreError) -> Bool {
        let removed = try database.transaction { () throws(StoreError) -> Int in
            var count = 0
            for table in ["questionnaire", "measurement", "imported_day", "analytics_event"] {
                try database.run("DELETE FROM \(table) WHERE day = ?1", [.text(date.iso)])
                count += database.changes
            }
            return count
        }
        try truncateLog()
        return removed > 0
    }

    /// Deletes all of the person's data — every day, measurement, import marker, analytics event,
    /// setting and experiment — and then scrubs the file so no byte of it remains: deleted content is zeroed
    /// (`secure_delete`), the write-ahead log is checkpointed and truncated, and `VACUUM` rebuilds the
    /// file without free pages (spec §11.2 "Delete all data"). The schema stays.
    public func deleteAll() throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            for table in [
                "habit_tag", "questionnaire", "measurement", "imported_day", "analytics_event", "setting",
                "experiment_morning", "experiment",
            ] {
                try database.run("DELETE FROM \(table)")
            }
        }
        try truncateLog()
        try database.execute("VACUUM")
        try truncateLog()
    }

    /// Copies the write-ahead log into the database file and truncates the log to zero bytes.
    /// The corresponding C function is `sqlite3_wal_checkpoint_v2`.
    func truncateLog() throws(StoreError) {
        var logFrames: Int32 = 0
        var copied: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(database.handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &copied)
        guard code == SQLITE_OK else { throw database.error(code: code, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}

import CSQLite
import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

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
        _ = try scrubLog(withinMs: 0)
        return removed > 0
    }

    /// Deletes all of the person's data — every day, measurement, import marker, analytics event,
    /// setting and experiment — and then scrubs the file so no byte of it remains: deleted content is zeroed
    /// (`secure_delete`), the write-ahead log is checkpointed and truncated, and `VACUUM` rebuilds the
    /// file without free pages (spec §11.2 "Delete all data"). The schema stays. Once the deletion is committed
    /// nothing here fails because another program is reading: `scrubLog` says whether the log could be emptied.
    public func deleteAll() throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            for table in [
                "habit_tag", "questionnaire", "measurement", "imported_day", "analytics_event", "setting",
                "experiment_morning", "experiment",
            ] {
                try database.run("DELETE FROM \(table)")
            }
        }
        _ = try scrubLog(withinMs: 0)
        do { try database.execute("VACUUM") } catch where error.isBusy {
            // A reader holds the file: the deleted pages are already zeroed (secure_delete); VACUUM only
            // drops the free pages, and the next delete --all does it.
        }
        _ = try scrubLog(withinMs: 0)
    }

    /// Empties the write-ahead log into the database file and truncates it, trying again for `withinMs` while
    /// another connection's read transaction holds pages the checkpoint would overwrite. True when the log is
    /// empty; false when a reader still held it at the end (the deleted content then stays in the log and the
    /// file's old pages until that reader ends and the next checkpoint runs).
    @discardableResult
    public func scrubLog(withinMs: Int64) throws(StoreError) -> Bool {
        let deadline = Store.monotonicMs() + withinMs
        // This loop keeps the time itself: SQLite's busy handler would wait its whole timeout inside each attempt,
        // so a reader would hold `withinMs: 0` for seconds before the caller could say it is waiting.
        database.setBusyTimeout(0)
        defer { database.setBusyTimeout(busyTimeoutMs) }
        while true {
            do {
                try truncateLog()
                return true
            } catch where error.isBusy {
                if Store.monotonicMs() >= deadline { return false }
                usleep(100_000)
            }
        }
    }

    static func monotonicMs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
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

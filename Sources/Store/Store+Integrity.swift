import CSQLite

extension Store {
    /// `PRAGMA integrity_check` on a read-only connection of its own (sqlite.org/pragma.html#pragma_integrity_check):
    /// "ok", or the first problem SQLite reports, or why the file could not be read. Opens nothing for
    /// writing and runs no migration, so a check never changes the file it looks at (`recoverydeck doctor`).
    public static func integrityCheck(ofFile path: String) -> String {
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            return "cannot open: " + String(cString: sqlite3_errmsg(db))
        }
        // The daemon may hold a write lock for a moment; wait a little rather than report "locked".
        sqlite3_busy_timeout(db, 2000)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK else {
            return String(cString: sqlite3_errmsg(db))
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else {
            return String(cString: sqlite3_errmsg(db))
        }
        return String(cString: text)
    }
}

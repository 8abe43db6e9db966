import CSQLite
import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// The box's data: one SQLite file holding each local day's questionnaire and morning measurement,
/// history-import markers, local analytics and settings (DESIGN §4 "Store", spec §7).
///
/// Open one `Store` per process (or per thread); the daemon and the CLI may hold the same file open
/// at once. Every method is synchronous, and every write that touches several rows is one
/// transaction: after a crash the day is either as it was or complete.
public final class Store {
    private(set) var database: Database
    let busyTimeoutMs: Int32

    /// The database file.
    public var path: String { database.path }

    /// The rows left out because they could not be decoded, one sentence each, in the order found
    /// (what `doctor` reports).
    public private(set) var skippedRows: [String] = []
    /// How many times the store took another file at its path (`followFile`): part of `changeStamp`.
    var reopenings = 0
    /// Told each newly skipped row's sentence once: the daemon puts it in its journal.
    public var onSkippedRow: ((String) -> Void)?

    /// Leaves a row out: said once, never a trap and never a default in its place.
    func skipRow(_ sentence: String) {
        guard !skippedRows.contains(sentence) else { return }
        skippedRows.append(sentence)
        onSkippedRow?(sentence)
    }

    /// Opens (creating with mode 0600 if needed) and brings the schema up to date. `busyTimeoutMs` is how
    /// long a statement waits for another process's write lock (default 5 s).
    public init(path: String, busyTimeoutMs: Int32? = nil) throws(StoreError) {
        self.busyTimeoutMs = busyTimeoutMs ?? Database.busyTimeoutMs
        database = try Database(path: path, busyTimeoutMs: self.busyTimeoutMs)
        try database.migrate(Schema.migrations)
    }

    /// Schema steps recorded as applied in the file, in order.
    public func appliedMigrations() throws(StoreError) -> [String] {
        try database.appliedMigrations()
    }

    /// Every schema step this program knows, in order.
    public static var knownMigrations: [String] { Schema.migrations.map(\.identifier) }

    /// `PRAGMA quick_check` on the whole file: empty when sound, else SQLite's first findings. The daemon
    /// runs it at start and refuses a malformed file rather than writing mornings into it.
    public func quickCheck() throws(StoreError) -> [String] { try database.quickCheck() }

    /// What became of the file under a long-lived connection, checked before each write.
    public enum FileChange: Hashable, Sendable {
        /// The open file is still the one at `path`.
        case same
        /// Another file now sits at `path` (a backup moved into place); the store opened it.
        case reopened
    }

    /// Makes sure a write goes to the file at `path`, not to an inode that was renamed away, replaced or
    /// deleted under this connection (SQLite keeps writing to the open descriptor, and a stale `-wal` would
    /// later be replayed onto a new file at the path). A replaced file is taken: the old connection's log is
    /// checkpointed into the old inode and emptied first, so nothing of it reaches the new file, then the new
    /// file is opened, checked (`quick_check`) and migrated. A missing file is refused: creating an empty
    /// database in its place would hide the loss.
    @discardableResult
    public func followFile() throws(StoreError) -> FileChange {
        // Inside a transaction the file was checked when it began.
        guard sqlite3_get_autocommit(database.handle) != 0 else { return .same }
        return try followMovedFile()
    }

    private func followMovedFile() throws(StoreError) -> FileChange {
        guard database.hasMoved else { return .same }
        let path = database.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StoreError(
                resultCode: SQLITE_CANTOPEN,
                message: "the database file \(path) was deleted or moved away while in use; nothing more is written "
                    + "until it is back or the daemon is restarted")
        }
        var frames: Int32 = 0
        var copied: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(database.handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &frames, &copied)
        guard code == SQLITE_OK else {
            throw StoreError(
                resultCode: code,
                message: "the database file \(path) was replaced while in use, and the old file's log could not be "
                    + "closed off (\(String(cString: sqlite3_errstr(code)))); it is tried again later")
        }
        let replacement = try Database(path: path, busyTimeoutMs: busyTimeoutMs)
        let findings = try replacement.quickCheck()
        guard findings.isEmpty else {
            throw StoreError(
                resultCode: SQLITE_CORRUPT,
                message: "the file now at \(path) fails quick_check (\(findings.joined(separator: "; "))); "
                    + "nothing is written into it")
        }
        try replacement.migrate(Schema.migrations)
        database = replacement
        reopenings += 1
        return .reopened
    }
}

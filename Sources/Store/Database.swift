import CSQLite
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// One connection to the store's SQLite file, configured the way DESIGN §4 asks: WAL, `synchronous=FULL`,
/// foreign keys on, deleted content overwritten (`secure_delete`), and a busy timeout because the daemon
/// and the CLI open the same file.
final class Database {
    let handle: OpaquePointer
    let path: String

    /// How long a statement waits for another process's lock before failing with `SQLITE_BUSY`, unless
    /// the opener asks for less (the daemon does: its one loop must not stall behind another process).
    static let busyTimeoutMs: Int32 = 5_000

    init(path: String, busyTimeoutMs: Int32 = Database.busyTimeoutMs) throws(StoreError) {
        try Database.createPrivately(path)
        var connection: OpaquePointer?
        // NOFOLLOW: root runs `delete --all` on this path, so a planted link must not redirect it.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "unable to open database file"
            sqlite3_close_v2(connection)
            throw StoreError(resultCode: code, message: message)
        }
        self.handle = connection
        self.path = path
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, busyTimeoutMs)
        // journal_mode is persistent in the file; the others hold for this connection.
        try execute(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            PRAGMA foreign_keys = ON;
            PRAGMA secure_delete = ON;
            """)
        let mode = try prepare("PRAGMA journal_mode").rows { $0.text(0) ?? "" }.first ?? ""
        guard mode.lowercased() == "wal" else {
            throw StoreError(resultCode: SQLITE_CANTOPEN, message: "the database would not enter WAL mode (\(mode))")
        }
        Database.tightenMode(path)
    }

    /// How long a statement waits for another connection's lock from now on (`sqlite3_busy_timeout`; 0: it does
    /// not wait, SQLITE_BUSY at once).
    func setBusyTimeout(_ ms: Int32) { sqlite3_busy_timeout(handle, ms) }

    /// Empties the log into the file before closing (a TRUNCATE checkpoint, best effort): a replaced note's old
    /// version would otherwise stay in the -wal's older frames for as long as another connection (the daemon's)
    /// keeps the log alive. A reader elsewhere makes it give up after the busy timeout; nothing is lost then.
    deinit {
        sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        sqlite3_close_v2(handle)
    }

    /// The mode the database and its -wal and -shm files keep (`SharedState`).
    static func fileMode(forDatabaseAt path: String) -> mode_t { SharedState.fileMode(in: PathName.directory(of: path)) }

    /// Creates a missing file with the database's mode before SQLite opens it (SQLite would use 0644 less
    /// the umask). SQLite gives the -wal and -shm files the main file's mode. A link is never followed, and an
    /// existing file is not opened here: closing a descriptor of it would release the POSIX locks by which
    /// SQLite tells this process's connections from other processes' (another connection of this process
    /// may hold them).
    private static func createPrivately(_ path: String) throws(StoreError) {
        let mode = fileMode(forDatabaseAt: path)
        // O_EXCL: only a file this call creates is opened; a link in the way (dangling or not) is EEXIST.
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                path, .readWrite, options: [.create, .exclusive, .noFollow],
                permissions: FilePermissions(rawValue: mode))
        } catch {
            var info = stat()
            if error == .fileExists, lstat(path, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFLNK else { return }
                throw StoreError(
                    resultCode: SQLITE_CANTOPEN,
                    message: "\(path) is a symbolic link; the database must be a plain file, so it was not opened")
            }
            throw StoreError(resultCode: SQLITE_CANTOPEN, message: error.message)
        }
        defer { fd.close() }
        // The umask may have taken bits away at creation.
        if let info = try? fd.status(), info.st_mode & 0o777 != mode {
            try? fd.setPermissions(FilePermissions(rawValue: mode))
        }
    }

    /// Takes away permissions beyond the database's mode from an existing database and its -wal and -shm
    /// files, once SQLite has accepted the file as a database (a file that is not one is left as it was).
    private static func tightenMode(_ path: String) {
        let mode = fileMode(forDatabaseAt: path)
        for file in [path, path + "-wal", path + "-shm"] { try? FileMode.narrow(atPath: file, keeping: mode) }
    }

    func error(code: Int32, sql: String?) -> StoreError {
        let extended = sqlite3_extended_errcode(handle)
        let resultCode = (extended & 0xff) == (code & 0xff) ? extended : code
        return StoreError(resultCode: resultCode, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    func prepare(_ sql: String) throws(StoreError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs one or more statements that take no parameters.
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw StoreError(resultCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Runs one statement with `values` bound to `?1…?n`.
    func run(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) {
        try prepare(sql).execute(values)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT` (the write lock is taken up front, so a busy
    /// database is reported at the start, not half way). Any error rolls everything back.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        guard sqlite3_get_autocommit(handle) != 0 else {
            throw StoreError(resultCode: SQLITE_MISUSE, message: "a transaction is already open")
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// True when the file this connection has open is no longer the file at `path`: renamed, replaced by
    /// another file (`mv backup.db recoverydeck.db`) or deleted. SQLite's own test (`SQLITE_FCNTL_HAS_MOVED`:
    /// link count zero, or the path's inode differs from the open descriptor's).
    var hasMoved: Bool {
        var moved: Int32 = 0
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        return code == SQLITE_OK && moved != 0
    }

    /// `PRAGMA quick_check`: empty when the file is sound, else SQLite's findings (first 10).
    func quickCheck() throws(StoreError) -> [String] {
        let rows = try prepare("PRAGMA quick_check(10)").rows { $0.text(0) ?? "" }
        return rows == ["ok"] ? [] : rows
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }
}

import CSQLite

/// A failure of the store: the SQLite result code, SQLite's own message, and the statement that
/// failed (after GRDB's `DatabaseError`). `description` is one sentence a person can act on.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The (extended) SQLite result code, e.g. `SQLITE_CONSTRAINT_CHECK` (275).
    public let resultCode: Int32
    public let message: String
    /// The SQL that failed, when a statement was involved.
    public let sql: String?

    public init(resultCode: Int32, message: String, sql: String? = nil) {
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of an extended code).
    public var primaryCode: Int32 { resultCode & 0xff }

    /// True for `SQLITE_CONSTRAINT` and its extended codes (CHECK, NOT NULL, UNIQUE, FOREIGN KEY).
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// True when another process held the database longer than the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    public var description: String {
        let name = String(cString: sqlite3_errstr(resultCode))
        var text = "The database reported \(name) (code \(resultCode)): \(message)"
        if !text.hasSuffix(".") { text += "." }
        return text
    }

    /// The error for a value the store found in its own file but cannot read back (a damaged blob,
    /// an unknown enumeration value): reported as `SQLITE_CORRUPT` so it is never mistaken for bad input.
    static func corrupt(_ message: String, sql: String? = nil) -> StoreError {
        StoreError(resultCode: SQLITE_CORRUPT, message: message, sql: sql)
    }

    /// The error for a value the caller asked the store to keep that the schema cannot hold.
    static func invalid(_ message: String) -> StoreError {
        StoreError(resultCode: SQLITE_MISUSE, message: message)
    }
}

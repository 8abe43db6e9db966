import RecoveryCore

/// The box's data: one SQLite file holding each local day's questionnaire and morning measurement,
/// history-import markers, local analytics and settings (DESIGN §4 "Store", spec §7).
///
/// Open one `Store` per process (or per thread); the daemon and the CLI may hold the same file open
/// at once. Every method is synchronous, and every write that touches several rows is one
/// transaction: after a crash the day is either as it was or complete.
public final class Store {
    let database: Database

    /// The database file.
    public var path: String { database.path }

    /// Opens (creating with mode 0600 if needed) and brings the schema up to date.
    public init(path: String) throws(StoreError) {
        database = try Database(path: path)
        try database.migrate(Schema.migrations)
    }

    /// Schema steps recorded as applied in the file, in order.
    public func appliedMigrations() throws(StoreError) -> [String] {
        try database.appliedMigrations()
    }

    /// Every schema step this program knows, in order.
    public static var knownMigrations: [String] { Schema.migrations.map(\.identifier) }
}

import CSQLite

/// One step of the schema, identified by a name that is recorded in the database once applied
/// (after GRDB's `DatabaseMigrator`). Steps are never edited once shipped: a change is a new step.
struct Migration: Sendable {
    let identifier: String
    let sql: String
    /// A step SQL cannot express (recomputing values from stored samples), run after `sql` in the same transaction.
    var recompute: (@Sendable (Database) throws(StoreError) -> Void)? = nil
}

extension Database {
    /// Applies, in order, every migration not yet recorded in `schema_migrations`, each in its own
    /// `BEGIN IMMEDIATE` transaction, so a daemon and a CLI starting together never apply one twice.
    /// Refuses a file that records a migration this program does not know: a newer RecoveryDeck wrote it.
    func migrate(_ migrations: [Migration]) throws(StoreError) {
        try execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                identifier TEXT PRIMARY KEY NOT NULL,
                applied_at INTEGER NOT NULL
            ) WITHOUT ROWID
            """)
        let known = Set(migrations.map(\.identifier))
        let recorded = try appliedMigrations()
        if let unknown = recorded.first(where: { !known.contains($0) }) {
            throw StoreError(
                resultCode: SQLITE_CANTOPEN,
                message: "the database was written by a newer RecoveryDeck (it has schema step \"\(unknown)\")")
        }
        for migration in migrations where !recorded.contains(migration.identifier) {
            try transaction { () throws(StoreError) in
                // Another process may have applied it while this one waited for the lock.
                let done = try prepare("SELECT 1 FROM schema_migrations WHERE identifier = ?1")
                    .rows([.text(migration.identifier)]) { _ in true }
                guard done.isEmpty else { return }
                try execute(migration.sql)
                try migration.recompute?(self)
                try run(
                    "INSERT INTO schema_migrations (identifier, applied_at) VALUES (?1, unixepoch())",
                    [.text(migration.identifier)])
            }
        }
    }

    /// The identifiers recorded as applied, in the order they were applied.
    func appliedMigrations() throws(StoreError) -> [String] {
        try prepare("SELECT identifier FROM schema_migrations ORDER BY identifier").rows { $0.text(0) ?? "" }
    }
}

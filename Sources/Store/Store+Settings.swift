import RecoveryCore

extension Store {
    /// The settings record (`Settings`, the one codec of the `setting` table). A stored value that does not read
    /// is left out with its sentence (`skippedRows`: the daemon's journal, `doctor`) and its default applies.
    public func settings() throws(StoreError) -> Settings {
        let read = Settings.read(rows: try allSettings())
        for problem in read.problems { skipRow(problem) }
        return read.settings
    }

    /// Writes `keys` of `settings` in one transaction (a key at its default removes its row): all or none.
    public func save(_ settings: Settings, keys: [SettingKey]) throws(StoreError) {
        try setSettings(settings.rows(keys))
    }

    /// Reads the record, lets `change` edit it, and writes `keys` back, in one transaction.
    public func updateSettings(_ keys: [SettingKey], _ change: (inout Settings) -> Void) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            var settings = try self.settings()
            change(&settings)
            for (key, value) in settings.rows(keys) { try setSetting(key, value) }
        }
    }

    /// Writes one row as given; nil removes it. Only the record's codec and restore (whose values the export
    /// reader checked with `Settings.read`) write rows.
    func setSetting(_ key: SettingKey, _ value: String?) throws(StoreError) {
        try followFile()
        if let value {
            try database.run(
                """
                INSERT INTO setting (key, value) VALUES (?1, ?2)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """,
                [.text(key.rawValue), .text(value)])
        } else {
            try database.run("DELETE FROM setting WHERE key = ?1", [.text(key.rawValue)])
        }
    }

    /// Sets several rows in one transaction (nil removes one): all change or none.
    func setSettings(_ changes: [(SettingKey, String?)]) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            for (key, value) in changes { try setSetting(key, value) }
        }
    }

    /// Every setting, sorted by key.
    public func allSettings() throws(StoreError) -> [(key: SettingKey, value: String)] {
        try database.prepare("SELECT key, value FROM setting ORDER BY key").decodedRows(table: "setting", skipped: skipRow) {
            (row) throws(StoreError) in (SettingKey(rawValue: try row.text("key")), try row.text("value"))
        }
    }

    /// The lights' band edges: the `band_edges` setting, or the spec's 1.0 / 1.5 SD while unset.
    public func lightEdges() throws(StoreError) -> LightEdges { try settings().bandEdges }

    /// How many complete days (`DayRecord.isComplete`) are stored, over the whole history.
    public func completeDayCount() throws(StoreError) -> Int {
        try allDays().reduce(0) { $0 + ($1.isComplete ? 1 : 0) }
    }

    /// The configured habit names, in the configured order; the starter list while unset.
    public func habitList() throws(StoreError) -> [String] { try settings().habits }

    /// Replaces the habit list: 1 to 20 names of 1–32 characters of `a–z`, `0–9` and `-`, without repeats.
    public func setHabitList(_ names: [String]) throws(StoreError) {
        var settings = Settings()
        if let why = settings.read(.habits, names.joined(separator: ",")) {
            throw .invalid("the habit list \(why)")
        }
        // Inside restore's transaction too: the row is written without a transaction of its own.
        for (key, value) in settings.rows([.habits]) { try setSetting(key, value) }
    }
}

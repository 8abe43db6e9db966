import RecoveryCore

extension Store {
    /// The value of a setting, or nil when unset.
    public func setting(_ key: SettingKey) throws(StoreError) -> String? {
        try database.prepare("SELECT value FROM setting WHERE key = ?1").rows([.text(key.rawValue)]) { $0.text(0) }
            .first ?? nil
    }

    /// Sets a setting; nil removes it.
    public func setSetting(_ key: SettingKey, _ value: String?) throws(StoreError) {
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

    /// Sets several settings in one transaction (nil removes one): all change or none.
    public func setSettings(_ changes: [(SettingKey, String?)]) throws(StoreError) {
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

    /// The lights' band edges: the `band_edges` setting, or the spec's 1.0 / 1.5 SD while unset. A stored
    /// value that does not read (`settings` and restore check every value they write) counts as unset.
    public func lightEdges() throws(StoreError) -> LightEdges {
        try setting(.bandEdges).flatMap(LightEdges.init(setting:)) ?? .spec
    }

    /// How many complete days (`DayRecord.isComplete`) are stored, over the whole history.
    public func completeDayCount() throws(StoreError) -> Int {
        try allDays().reduce(0) { $0 + ($1.isComplete ? 1 : 0) }
    }

    /// The configured habit names, in the configured order; the starter list while unset.
    public func habitList() throws(StoreError) -> [String] {
        guard let text = try setting(.habits) else { return Questionnaire.starterHabits }
        return text.split(separator: ",").map(String.init)
    }

    /// Replaces the habit list. Names are 1–32 characters of `a–z`, `0–9` and `-`, without repeats.
    public func setHabitList(_ names: [String]) throws(StoreError) {
        if let bad = names.first(where: { !Store.isHabitName($0) }) {
            throw .invalid("\"\(bad)\" is not a habit name (1–32 characters of a–z, 0–9 and -)")
        }
        guard Set(names).count == names.count else { throw .invalid("the habit list names a habit twice") }
        try setSetting(.habits, names.joined(separator: ","))
    }
}

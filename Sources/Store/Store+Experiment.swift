import RecoveryCore

extension Store {
    /// Stores a new experiment and its schedule in one transaction; returns its id.
    @discardableResult
    public func addExperiment(_ e: StoredExperiment) throws(StoreError) -> Int64 {
        try database.transaction { () throws(StoreError) -> Int64 in try writeExperiment(e, keepingID: false) }
    }

    /// Inserts an experiment and its schedule inside the caller's transaction. `keepingID` writes `e.id`
    /// and the stop as they are (restore); otherwise SQLite picks the id and the experiment starts unstopped.
    func writeExperiment(_ e: StoredExperiment, keepingID: Bool) throws(StoreError) -> Int64 {
        precondition(e.arms.count == e.mornings, "Store: one arm per morning")
        try database.run(
            """
            INSERT INTO experiment (id, habit, outcome, first_day, mornings, block, seed, started_at,
                stopped_day, stopped_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            """,
            [
                SQLValue(keepingID ? e.id : nil), .text(e.habit), .text(e.outcome), .text(e.firstDay.iso),
                .integer(Int64(e.mornings)), .integer(Int64(e.block)), .integer(Int64(bitPattern: e.seed)),
                .integer(e.startedAt), SQLValue(keepingID ? e.stoppedDay?.iso : nil),
                SQLValue(keepingID ? e.stoppedAt : nil),
            ])
        let id = try database.prepare("SELECT last_insert_rowid()").rows { $0.int64(0) ?? 0 }.first ?? 0
        for (i, arm) in e.arms.enumerated() {
            try database.run(
                "INSERT INTO experiment_morning (experiment_id, day, arm) VALUES (?1, ?2, ?3)",
                [.integer(id), .text(e.firstDay.adding(days: i).iso), .text(arm)])
        }
        return id
    }

    /// Every experiment, oldest first, with its schedule.
    public func experiments() throws(StoreError) -> [StoredExperiment] {
        try experiments(selectedBy: "ORDER BY id", [])
    }

    /// The experiment running on `day` (`StoredExperiment.isRunning(on:)`), with its schedule: the newest
    /// one not stopped whose last morning is `day` or later. One that starts after `day` counts (the night
    /// before its first morning belongs to it); a stopped one never does, even before its stop day.
    public func experiment(runningOn day: LocalDate) throws(StoreError) -> StoredExperiment? {
        // ISO dates compare as text; date() adds days as LocalDate.adding(days:) does.
        try experiments(
            selectedBy: """
                WHERE stopped_day IS NULL AND ?1 < date(first_day, '+' || mornings || ' days')
                ORDER BY id DESC LIMIT 1
                """, [.text(day.iso)]
        ).first
    }

    /// The experiments that `selection` (what follows `FROM experiment`) picks, in its order, with their schedules.
    private func experiments(selectedBy selection: String, _ values: [SQLValue]) throws(StoreError)
        -> [StoredExperiment]
    {
        var list = try database.prepare(
            """
            SELECT id, habit, outcome, first_day, mornings, block, seed, started_at, stopped_day,
                stopped_at
            FROM experiment \(selection)
            """
        ).rows(values) { (row) throws(StoreError) in
            StoredExperiment(
                id: row.int64(0) ?? 0, habit: row.text(1) ?? "", outcome: row.text(2) ?? "",
                firstDay: try Store.date(row, 3), mornings: row.int(4) ?? 0, block: row.int(5) ?? 2,
                seed: UInt64(bitPattern: row.int64(6) ?? 0), startedAt: row.int64(7) ?? 0,
                stoppedDay: row.text(8).flatMap { LocalDate(iso: $0) }, stoppedAt: row.int64(9), arms: [])
        }
        for i in list.indices {
            list[i].arms = try database.prepare(
                "SELECT arm FROM experiment_morning WHERE experiment_id = ?1 ORDER BY day"
            ).rows([.integer(list[i].id)]) { $0.text(0) ?? "" }
        }
        return list
    }

    /// Marks an experiment stopped: `day` is the first morning no longer in it.
    public func stopExperiment(id: Int64, firstMorningLeftOut day: LocalDate, at: Int64) throws(StoreError) {
        try database.run(
            "UPDATE experiment SET stopped_day = ?2, stopped_at = ?3 WHERE id = ?1 AND stopped_day IS NULL",
            [.integer(id), .text(day.iso), .integer(at)])
    }
}

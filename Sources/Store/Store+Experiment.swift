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
        guard e.arms.count == e.mornings else {
            throw .invalid("an experiment of \(e.mornings) mornings needs one arm per morning, not \(e.arms.count)")
        }
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
        let arms = try database.prepare(
            "SELECT experiment_id, arm FROM experiment_morning ORDER BY experiment_id, day"
        ).decodedRows(table: "experiment_morning", skipped: skipRow) { (row) throws(StoreError) -> (Int64, String) in
            (try row.int64("experiment_id"), try row.value("arm", as: TonightArm.self).rawValue)
        }
        let schedules = Dictionary(grouping: arms, by: \.0).mapValues { $0.map(\.1) }
        return try database.prepare(
            """
            SELECT id, habit, outcome, first_day, mornings, block, seed, started_at, stopped_day,
                stopped_at
            FROM experiment \(selection)
            """
        ).decodedRows(values, table: "experiment", skipped: skipRow) { (row) throws(StoreError) in
            let e = StoredExperiment(
                id: try row.int64("id"), habit: try row.text("habit"),
                outcome: try row.value("outcome", as: Channel.self).rawValue, firstDay: try row.date("first_day"),
                mornings: try row.int("mornings"), block: try row.int("block"),
                seed: UInt64(bitPattern: try row.int64("seed")), startedAt: try row.int64("started_at"),
                stoppedDay: try row.optionalDate("stopped_day"), stoppedAt: try row.optionalInt64("stopped_at"),
                arms: schedules[try row.int64("id")] ?? [])
            // arm(forMorning:) indexes the schedule by morning: one arm per morning, or the row is not used.
            guard e.mornings > 0, e.arms.count == e.mornings, e.block > 0 else {
                throw .corrupt(
                    "experiment \(e.id) of \(e.mornings) mornings has \(e.arms.count) arms in its schedule, so it was left out")
            }
            return e
        }
    }

    /// Marks an experiment stopped: `day` is the first morning no longer in it.
    public func stopExperiment(id: Int64, firstMorningLeftOut day: LocalDate, at: Int64) throws(StoreError) {
        try database.run(
            "UPDATE experiment SET stopped_day = ?2, stopped_at = ?3 WHERE id = ?1 AND stopped_day IS NULL",
            [.integer(id), .text(day.iso), .integer(at)])
    }
}

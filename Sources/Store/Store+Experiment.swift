import RecoveryCore

/// A T4 experiment as stored: its scheme, its seed and its schedule (DESIGN §6).
public struct StoredExperiment: Hashable, Sendable {
    public var id: Int64
    public var habit: String
    /// A `Channel` raw value.
    public var outcome: String
    /// The first morning of the schedule (the night before it is the first night).
    public var firstDay: LocalDate
    public var mornings: Int
    public var block: Int
    public var seed: UInt64
    public var startedAt: Int64
    /// Stopped early: the first morning no longer in the experiment.
    public var stoppedDay: LocalDate?
    /// When it was stopped (seconds since the Unix epoch); nil while not stopped.
    public var stoppedAt: Int64?
    /// "habit" or "without" per morning, in order.
    public var arms: [String]

    public init(
        id: Int64 = 0, habit: String, outcome: String, firstDay: LocalDate, mornings: Int, block: Int, seed: UInt64,
        startedAt: Int64, stoppedDay: LocalDate? = nil, stoppedAt: Int64? = nil, arms: [String]
    ) {
        self.id = id
        self.habit = habit
        self.outcome = outcome
        self.firstDay = firstDay
        self.mornings = mornings
        self.block = block
        self.seed = seed
        self.startedAt = startedAt
        self.stoppedDay = stoppedDay
        self.stoppedAt = stoppedAt
        self.arms = arms
    }

    /// The morning after the last one in the experiment (the planned end, or the stop).
    public var endDay: LocalDate { stoppedDay ?? firstDay.adding(days: mornings) }

    /// Mornings run: the schedule up to the end (planned or stopped).
    public var morningsRun: Int { min(mornings, max(0, endDay.dayNumber - firstDay.dayNumber)) }

    /// Still running on `today`: not stopped, and a morning of the schedule lies ahead or is today.
    public func isRunning(on today: LocalDate) -> Bool { stoppedDay == nil && today < endDay }

    /// The arm of the night before morning `date`, when that morning is in the schedule.
    public func arm(forMorning date: LocalDate) -> String? {
        let i = date.dayNumber - firstDay.dayNumber
        guard i >= 0, i < morningsRun else { return nil }
        return arms[i]
    }
}

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

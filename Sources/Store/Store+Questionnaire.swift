import RecoveryCore

extension Store {
    /// Saves the day's questionnaire, replacing any earlier answers for the same day together with
    /// their habit tags, in one transaction. `recordedAt` is seconds since the Unix epoch. A day checked in on
    /// the box is the box's own from then on: its imported mark goes (a later import keeps it unless forced).
    public func saveQuestionnaire(_ questionnaire: Questionnaire, recordedAt: Int64) throws(StoreError) {
        try followFile()
        try database.transaction { () throws(StoreError) in
            try writeQuestionnaire(questionnaire, recordedAt: recordedAt)
            try clearImportedMark(questionnaire.date)
        }
    }

    /// The questionnaire for `date`, or nil when none was given.
    public func questionnaire(on date: LocalDate) throws(StoreError) -> Questionnaire? {
        try questionnaires(from: date, through: date)[date]
    }

    /// True when the day's questionnaire is in (the gate's input, spec §6.3).
    public func hasQuestionnaire(on date: LocalDate) throws(StoreError) -> Bool {
        try !database.prepare("SELECT 1 FROM questionnaire WHERE day = ?1").rows([.text(date.iso)]) { _ in 1 }.isEmpty
    }

    /// Inside a transaction: replaces the questionnaire row (its habit tags go by cascade) and adds the tags.
    func writeQuestionnaire(_ q: Questionnaire, recordedAt: Int64) throws(StoreError) {
        try database.run("DELETE FROM questionnaire WHERE day = ?1", [.text(q.date.iso)])
        try database.run(
            """
            INSERT INTO questionnaire (day, fatigue, mood, soreness, stress, sleep, caffeine_time, caffeine_mg,
                last_meal_time, notes, recorded_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """,
            [
                .text(q.date.iso), SQLValue(q.scores.fatigue.value), SQLValue(q.scores.mood.value),
                SQLValue(q.scores.soreness.value), SQLValue(q.scores.stress.value), SQLValue(q.scores.sleep.value),
                SQLValue(q.caffeineTime?.minutes), SQLValue(q.caffeineMg), SQLValue(q.lastMealTime?.minutes),
                SQLValue(q.notes), .integer(recordedAt),
            ])
        let tag = try database.prepare("INSERT INTO habit_tag (day, habit) VALUES (?1, ?2)")
        for habit in q.habits { try tag.execute([.text(q.date.iso), .text(habit)]) }
    }

    /// Questionnaires with their habit tags for every day in the range that has one.
    func questionnaires(from: LocalDate, through: LocalDate) throws(StoreError) -> [LocalDate: Questionnaire] {
        let range: [SQLValue] = [.text(from.iso), .text(through.iso)]
        var habits: [LocalDate: [String]] = [:]
        let tagRows = try database.prepare(
            "SELECT day, habit FROM habit_tag WHERE day BETWEEN ?1 AND ?2 ORDER BY day, habit"
        ).decodedRows(range, table: "habit_tag", skipped: skipRow) { (row) throws(StoreError) in
            (try row.date("day"), try row.text("habit"))
        }
        for (day, habit) in tagRows { habits[day, default: []].append(habit) }

        let sql = """
            SELECT day, fatigue, mood, soreness, stress, sleep, caffeine_time, caffeine_mg, last_meal_time, notes
            FROM questionnaire WHERE day BETWEEN ?1 AND ?2 ORDER BY day
            """
        let rows = try database.prepare(sql).decodedRows(range, table: "questionnaire", skipped: skipRow) {
            (row) throws(StoreError) -> Questionnaire in
            let day = try row.date("day")
            var values: [Int] = []
            for name in ["fatigue", "mood", "soreness", "stress", "sleep"] { values.append(try row.int(name)) }
            guard let scores = SubjectiveScores(values) else {
                throw .corrupt("the questionnaire of \(day) holds a score outside 1–7, so it was left out")
            }
            return Questionnaire(
                date: day, scores: scores, habits: habits[day] ?? [],
                caffeineTime: try row.optionalInt("caffeine_time").flatMap { MinuteOfDay(minutes: $0) },
                caffeineMg: try row.optionalInt("caffeine_mg"),
                lastMealTime: try row.optionalInt("last_meal_time").flatMap { MinuteOfDay(minutes: $0) },
                notes: try row.optionalText("notes"))
        }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.date, $0) })
    }

    static func date(_ row: Statement, _ column: Int32) throws(StoreError) -> LocalDate {
        let text = row.text(column) ?? ""
        guard let date = LocalDate(iso: text) else { throw .corrupt("a stored day \"\(text)\" is not a date") }
        return date
    }

    /// Inside a transaction: the day stops counting as imported (the box wrote to it).
    func clearImportedMark(_ date: LocalDate) throws(StoreError) {
        try database.run("DELETE FROM imported_day WHERE day = ?1", [.text(date.iso)])
    }
}

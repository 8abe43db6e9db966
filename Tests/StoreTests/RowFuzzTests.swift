import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// Seeded row fuzzing: a filled store whose rows are then damaged one or two columns at a time, with the CHECKs
/// off (a member's own sqlite3 can turn them off), to values a damaged or hostile file may hold: NULL, the wrong
/// type, integer extremes, NaN and infinities, empty and control-character text, malformed dates, random blobs.
/// Every reader the daemon, `status`, `history`, `export` and `doctor` use must then read the rest, leave the row
/// out with a sentence, or throw a `StoreError` with a sentence; a trap ends the test process, which fails it.
struct RowFuzzTests {
    /// One value for a damaged column, drawn from the kinds a file can hold.
    static func value(_ r: inout SeededRandom) -> SQLValue {
        let texts = [
            "", "\u{1b}[2J", "2026-02-30", "2026-03-10", "9999-99-99", "-1", "NaN", "pattern", "rmssd", "habit",
            "{\"a\":", "a,b", "x'00'", String(repeating: "z", count: 5000), "06:30", "1.2,1.8", "☃",
        ]
        let integers: [Int64] = [0, 1, -1, 7, 8, 255, 65_536, Int64(Int32.max), .max, .min]
        let reals: [Double] = [0, -0.0, 1.5, -1e300, 1e300, .nan, .infinity, -.infinity, 0.000_001]
        switch r.next() % 6 {
        case 0: return .null
        case 1: return .integer(integers[Int(r.next() % UInt64(integers.count))])
        case 2: return .real(reals[Int(r.next() % UInt64(reals.count))])
        case 3: return .text(texts[Int(r.next() % UInt64(texts.count))])
        case 4: return .blob((0..<Int(r.next() % 24)).map { _ in UInt8(truncatingIfNeeded: r.next()) })
        default: return .integer(Int64(bitPattern: r.next()))
        }
    }

    /// A store with a row in every table the readers read.
    static func filled(_ path: String) throws -> Store {
        let store = try Store(path: path)
        try store.saveMorning(Fixture.morning(), recordedAt: 1)
        try store.saveQuestionnaire(Fixture.questionnaire(), recordedAt: 2)
        try store.saveMorning(Fixture.degradedMorning(Fixture.day.adding(days: 1)), recordedAt: 3)
        try store.saveImportedDays(
            [DayRecord(date: Fixture.day.adding(days: -5), measurement: Fixture.morning(Fixture.day.adding(days: -5)))],
            source: "test", recordedAt: 4)
        _ = try store.addExperiment(StoreExperimentTests.experiment("alcohol", from: Fixture.day))
        try store.appendEvent(AnalyticsEvent(at: 300, day: Fixture.day, kind: .bleConnectFail, payload: "timeout"))
        try store.setSetting(.displayName, "Zach")
        try store.setSetting(.bandEdges, "1.2,1.8")
        try store.setHabitList(["alcohol", "late-night"])
        _ = try store.rejudge(rule: .spec20, at: 5)
        return store
    }

    /// Every reader a person's commands and the daemon's start use; returns the sentences of what failed.
    static func readAll(_ store: Store) -> [String] {
        var failures: [String] = []
        func attempt(_ body: () throws -> Void) {
            do { try body() } catch let error as StoreError { failures.append(error.description) } catch {
                failures.append("")  // only a StoreError, with its sentence, may come out of the store
            }
        }
        attempt { _ = try store.allDays() }
        attempt { _ = try store.days(from: Fixture.day.adding(days: -10), through: Fixture.day.adding(days: 10)) }
        attempt { _ = try store.measurement(on: Fixture.day) }
        attempt { _ = try store.questionnaire(on: Fixture.day) }
        attempt { _ = try store.experiments() }
        attempt { _ = try store.experiment(runningOn: Fixture.day.adding(days: 3)) }
        attempt { _ = try store.events() }
        attempt { _ = try store.allSettings() }
        attempt { _ = try store.lightEdges() }
        attempt { _ = try store.habitList() }
        attempt { _ = try store.completeDayCount() }
        attempt { _ = try store.judgementJobs() }
        attempt { _ = try store.analyticsSummary(today: Fixture.day.adding(days: 2)) }
        attempt { _ = try store.exportDocument(full: true, generatedAt: 10).json.serialized() }
        attempt { _ = try store.exportCSV() }
        attempt { _ = try store.quickCheck() }
        return failures
    }

    @Test("250 seeded damaged rows: every reader reads, skips with a sentence, or throws one; never a trap")
    func damagedRows() throws {
        let dir = TemporaryDirectory()
        let pristine = try Self.filled(dir.databasePath)
        let tables = try pristine.database.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'migration'"
        ).rows { $0.text(0) ?? "" }
        var r = SeededRandom(seed: 33)
        var damaged = 0
        var skipped = 0
        for round in 0..<250 {
            let path = dir.path + "/round-\(round).sqlite"
            try pristine.database.run("VACUUM INTO ?1", [.text(path)])
            let store = try Store(path: path)
            let table = tables[Int(r.next() % UInt64(tables.count))]
            let columns = try store.database.prepare("SELECT name FROM pragma_table_info(?1)").rows([.text(table)]) {
                $0.text(0) ?? ""
            }
            try store.database.run("PRAGMA ignore_check_constraints = ON")
            var changed = false
            for _ in 0..<(1 + Int(r.next() % 2)) {
                let column = columns[Int(r.next() % UInt64(columns.count))]
                do {
                    try store.database.run("UPDATE \(table) SET \(column) = ?1", [Self.value(&r)])
                    changed = true
                } catch {
                    // NOT NULL, UNIQUE or a foreign key refused the value: the file cannot hold it.
                }
            }
            try store.database.run("PRAGMA ignore_check_constraints = OFF")
            guard changed else { continue }
            damaged += 1
            for sentence in Self.readAll(store) { #expect(!sentence.isEmpty, "an error without a sentence") }
            for sentence in store.skippedRows { #expect(!sentence.isEmpty) }
            if !store.skippedRows.isEmpty { skipped += 1 }
        }
        // The damage reached the readers: most rounds changed a row, and some rows were left out with a sentence.
        #expect(damaged > 150, "\(damaged) rounds damaged a row")
        #expect(skipped > 10, "\(skipped) rounds left a row out")
    }
}

import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// `experiment(runningOn:)`: the daemon's and the CLI's "which experiment is tonight's" on real SQLite (DESIGN §6).
struct StoreExperimentTests {
    /// Ten mornings from `first`, alternating in blocks of two, so each morning's arm is recognisable.
    static func experiment(_ habit: String, from first: LocalDate, mornings: Int = 10) -> StoredExperiment {
        StoredExperiment(
            habit: habit, outcome: "rmssd", firstDay: first, mornings: mornings, block: 2, seed: 11,
            startedAt: 1_773_000_000, arms: (0..<mornings).map { $0 / 2 % 2 == 0 ? "habit" : "without" })
    }

    /// The habit of the experiment running on `first + offset`, or nil.
    static func running(_ store: Store, _ offset: Int) throws -> String? {
        try store.experiment(runningOn: Fixture.day.adding(days: offset))?.habit
    }

    @Test("an experiment whose mornings disagree with its arms is left out with one sentence, never a trap")
    func morningsDisagreeWithArms() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        var said: [String] = []
        store.onSkippedRow = { said.append($0) }
        let id = try store.addExperiment(Self.experiment("alcohol", from: Fixture.day))
        // Every CHECK still holds: only the schedule is short.
        try store.database.run("DELETE FROM experiment_morning WHERE day >= ?1", [.text(Fixture.day.adding(days: 4).iso)])
        let running = try store.experiment(runningOn: Fixture.day)
        #expect(running == nil, "the row was used: \(String(describing: running))")
        let all = try store.experiments()
        #expect(all.isEmpty)
        #expect(said == ["experiment \(id) of 10 mornings has 4 arms in its schedule, so it was left out"])
        #expect(store.skippedRows == said, "said once, kept for doctor")
    }

    @Test("an outcome that is no channel is left out, not analysed as rMSSD")
    func unknownOutcome() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.addExperiment(Self.experiment("alcohol", from: Fixture.day))
        try store.database.run("PRAGMA ignore_check_constraints = ON")
        try store.database.run("UPDATE experiment SET outcome = 'bogus'")
        let all = try store.experiments()
        #expect(all.isEmpty)
        #expect(store.skippedRows.count == 1 && store.skippedRows[0].contains("\"bogus\", not a known Channel"), "\(store.skippedRows)")
    }

    @Test("no experiment: none is running on any day")
    func none() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        #expect(try store.experiment(runningOn: Fixture.day) == nil)
    }

    @Test("one experiment: running from before its start through its last morning, not on the morning after")
    func boundaries() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.addExperiment(Self.experiment("alcohol", from: Fixture.day))
        // Before the start it counts: the night before the first morning is its first night.
        #expect(try Self.running(store, -5) == "alcohol")
        let eve = try #require(try store.experiment(runningOn: Fixture.day.adding(days: -1)))
        #expect(eve.arms.count == 10 && eve.arm(forMorning: Fixture.day) == "habit")
        #expect(try Self.running(store, 0) == "alcohol")  // the first morning
        #expect(try Self.running(store, 9) == "alcohol")  // the last morning
        #expect(try Self.running(store, 10) == nil)  // the planned end: the morning after the last
        #expect(try Self.running(store, 400) == nil)
    }

    @Test("a stopped experiment is not running on any day, before its stop day included")
    func stopped() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let id = try store.addExperiment(Self.experiment("alcohol", from: Fixture.day))
        try store.stopExperiment(id: id, firstMorningLeftOut: Fixture.day.adding(days: 4), at: 1_773_400_000)
        for offset in [-1, 0, 3, 4, 9] { #expect(try Self.running(store, offset) == nil, "day \(offset)") }
    }

    @Test("two experiments back to back: the second owns the eve of its first morning; stopping it leaves the first")
    func backToBack() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.addExperiment(Self.experiment("alcohol", from: Fixture.day))
        let second = try store.addExperiment(Self.experiment("sauna", from: Fixture.day.adding(days: 10)))
        #expect(try Self.running(store, 0) == "sauna")  // the newer one, not yet started, is tonight's
        let lastOfFirst = try #require(try store.experiment(runningOn: Fixture.day.adding(days: 9)))
        #expect(lastOfFirst.habit == "sauna" && lastOfFirst.arm(forMorning: Fixture.day.adding(days: 10)) == "habit")
        #expect(try Self.running(store, 10) == "sauna")  // the second's first morning
        #expect(try Self.running(store, 19) == "sauna")
        #expect(try Self.running(store, 20) == nil)
        try store.stopExperiment(id: second, firstMorningLeftOut: Fixture.day.adding(days: 10), at: 1_773_900_000)
        #expect(try Self.running(store, 9) == "alcohol")
        #expect(try Self.running(store, 10) == nil)
    }

    @Test("the query picks what the rule over every experiment picks, day by day across three experiments")
    func sameAsTheRule() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        // The oldest starts last; the newest is stopped on its fourth morning.
        try store.addExperiment(Self.experiment("late meal", from: Fixture.day.adding(days: 20), mornings: 4))
        try store.addExperiment(Self.experiment("alcohol", from: Fixture.day, mornings: 6))
        let newest = try store.addExperiment(Self.experiment("sauna", from: Fixture.day.adding(days: 6), mornings: 8))
        try store.stopExperiment(id: newest, firstMorningLeftOut: Fixture.day.adding(days: 9), at: 1_773_500_000)
        let all = try store.experiments()
        for offset in -3...30 {
            let day = Fixture.day.adding(days: offset)
            let expected = offset < 6 ? "alcohol" : offset < 24 ? "late meal" : nil
            let found = try store.experiment(runningOn: day)
            #expect(found?.habit == expected, "day \(offset)")
            #expect(found == all.last { $0.isRunning(on: day) }, "day \(offset)")
        }
    }
}

import Foundation
import Insights
import LocalClock
import RecoveryCore
import Store
import Testing

/// `experiment` as a person runs it (DESIGN §6, T4): plan, start, tonight, status, result, stop, and the refusals.
struct ExperimentCommandTests {
    /// Day 0 of the synthetic person is 2026-01-01; 88 days of history end on 2026-03-29, the start evening.
    static let person = SyntheticPerson(seed: 21, effects: HabitEffect.withoutEffects)
    static let startEvening = "2026-03-29T21:00"

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func history(_ cli: RecoveryDeckProcess) throws {
        let store = try Store(path: cli.databasePath)
        try store.saveImportedDays(Self.person.plantedRecords(count: 88), source: "synthetic", recordedAt: 0)
    }

    /// The experiment `experiment start alcohol --days 28` would store on the start evening, drawn from `seed`: the
    /// command draws its own from the system's random source, so a test that needs a known schedule stores it
    /// through the same library calls with a seed of its own.
    func start(_ cli: RecoveryDeckProcess, seed: UInt64) throws {
        let scheme = RandomisationScheme(mornings: 28)
        let evening = LocalDate(iso: "2026-03-29")!
        try Store(path: cli.databasePath).addExperiment(
            StoredExperiment(
                habit: "alcohol", outcome: Channel.rmssd.rawValue, firstDay: evening.adding(days: 1), mornings: 28,
                block: scheme.block, seed: seed,
                startedAt: LocalTime.epochSeconds(of: evening, at: MinuteOfDay(hhmm: "21:00")!),
                arms: scheme.draw(seed: seed).map(\.rawValue)))
    }

    /// The experiment's mornings as the box would record them: the habit lowers rMSSD by `effect` ms, and the chip
    /// shows what was done; `ignored` mornings did the opposite of the draw.
    func mornings(_ cli: RecoveryDeckProcess, count: Int, effect: Double, ignored: Set<Int> = []) throws {
        let store = try Store(path: cli.databasePath)
        let e = try #require(try store.experiments().last)
        var records = Array(Self.person.plantedRecords(count: 88 + count + 1).dropFirst(88))
        for i in 0..<count {
            let drawn = e.arms[i] == "habit"
            let did = ignored.contains(i) ? !drawn : drawn
            records[i].questionnaire!.habits.removeAll { $0 == e.habit }
            if did {
                records[i].questionnaire!.habits.append(e.habit)
                records[i].measurement!.hrv!.rmssdMs! -= effect
            }
        }
        try store.saveImportedDays(records, source: "synthetic", recordedAt: 0)
    }

    @Test("plan prints the smallest detectable change from the person's own history, and the mornings a change needs")
    func plan() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        try history(cli)
        let out = try cli.run(
            ["experiment", "plan", "alcohol", "--days", "28", "--change", "5"], at: Self.startEvening)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("From your last 88 mornings with a value: rMSSD "))
        let detect = try #require(
            out.stdout.firstMatch(
                of: /28 mornings in blocks of 4 \(14 with, 14 without\) detect a change of ([0-9.]+) ms/))
        let ms = try #require(Double(detect.1))
        #expect(ms > 2 && ms < 40, "a plausible detectable change: \(ms) ms")
        #expect(out.stdout.contains("To detect a change of 5.0 ms with 80 % power: "))
        // Nothing is stored by a plan.
        let store = try Store(path: cli.databasePath)
        #expect(try store.experiments().isEmpty)
    }

    @Test("start, tonight and status agree with the stored schedule; a second start is refused, the schedule kept")
    func startAndTonight() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        try history(cli)
        let started = try cli.run(["experiment", "start", "alcohol", "--days", "28"], at: Self.startEvening)
        #expect(started.status == 0, "\(started.stderr)")
        let store = try Store(path: cli.databasePath)
        let e = try #require(try store.experiments().first)
        #expect(e.firstDay == LocalDate(iso: "2026-03-30")!)
        #expect(e.arms.count == 28)
        // Permuted blocks of 4: every block half and half.
        for b in 0..<7 { #expect(e.arms[(b * 4)..<(b * 4 + 4)].filter { $0 == "habit" }.count == 2) }
        let word = { (arm: String) in arm == "habit" ? "alcohol (do it)" : "no alcohol (leave it out)" }
        #expect(started.stdout.contains("Tonight, night 1 of 28: \(word(e.arms[0]))."))
        // The box drew the schedule; its seed is stored and shown, and draws the stored schedule again.
        #expect(started.stdout.contains("The draw's seed, stored with the schedule: \(e.seed)."))
        #expect(RandomisationScheme(mornings: 28).draw(seed: e.seed).map(\.rawValue) == e.arms)
        let tonight = try cli.run(["experiment", "tonight"], at: "2026-04-02T20:00")  // before morning 5
        #expect(tonight.stdout == "Tonight, night 5 of 28: \(word(e.arms[4])).\n")
        try mornings(cli, count: 4, effect: 0)
        let status = try cli.run(["status"], at: "2026-04-02T20:00")
        #expect(status.stdout.contains("Experiment with alcohol: tonight, night 5 of 28: \(word(e.arms[4]))."))

        let before = try Data(contentsOf: URL(fileURLWithPath: cli.databasePath))
        let second = try cli.run(["experiment", "start", "late-caffeine", "--days", "8"], at: "2026-04-02T20:00")
        #expect(second.status == 1)
        #expect(
            second.stderr.hasPrefix("recoverydeck experiment start: an experiment with alcohol runs until 2026-04-26"))
        #expect(second.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.databasePath)) == before)
        #expect(try store.experiments().count == 1)
    }

    @Test("bad input: one sentence, exit 64, nothing stored")
    func badInput() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        try history(cli)
        for (args, start) in [
            (["experiment", "start", "sauna", "--days", "28"], "'sauna' is not on your habit list"),
            (["experiment", "start", "alcohol", "--days", "30"], "--days must be a whole number of blocks of 4"),
            (["experiment", "start", "alcohol", "--days", "28", "--block", "3"], "--block must be an even number"),
            (["experiment", "start", "alcohol"], "--days N is required"),
            (["experiment", "plan", "alcohol", "--metric", "vo2max"], "--metric must be one of"),
            (["experiment", "plan", "alcohol", "--change", "x"], "--change must be a number"),
        ] {
            let out = try cli.run(args, at: Self.startEvening)
            #expect(out.status == 64, "\(args)")
            let lines = out.stderr.split(separator: "\n")
            #expect(lines.count == 2, "one sentence and a hint: \(out.stderr)")
            #expect(lines.first?.contains(": " + start) == true, "\(out.stderr)")
        }
        #expect(try Store(path: cli.databasePath).experiments().isEmpty)
        let none = try cli.run(["experiment", "tonight"], at: Self.startEvening)
        #expect(none.status == 1)
        #expect(none.stderr.hasPrefix("recoverydeck experiment tonight: no experiment is running"))
    }

    @Test("a planted 15 ms drop: the result says it in T4 words, with a randomisation p-value, ITT and per protocol")
    func resultFindsAPlantedEffect() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        try history(cli)
        try start(cli, seed: 9)
        let early = try cli.run(["experiment", "result"], at: "2026-04-10T20:00")
        #expect(early.status == 1)
        #expect(early.stderr.contains("its result comes from 2026-04-27"))
        try mornings(cli, count: 28, effect: 15, ignored: [3, 10])
        let out = try cli.run(["experiment", "result"], at: "2026-04-27T08:00")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("T4  In your own test, alcohol lowered your rMSSD by "), "\(out.stdout)")
        #expect(out.stdout.contains("14 vs 14 mornings"))
        let doc = try json(try cli.run(["experiment", "result", "--json"], at: "2026-04-27T08:00").stdout)
        let itt = try #require(doc["by_assignment"] as? [String: Any])
        let pp = try #require(doc["per_protocol"] as? [String: Any])
        let p = try #require(itt["p"] as? Double)
        #expect(p < 0.05)
        // Two mornings did the opposite: ITT is diluted by them, per protocol is not (tolerance: the person's own
        // day-to-day swings, about 5 ms on 14 mornings an arm).
        let ittDrop = try #require(itt["difference"] as? Double)
        let ppDrop = try #require(pp["difference"] as? Double)
        #expect(abs(ppDrop + 15) < 7, "per protocol \(ppDrop)")
        #expect(ittDrop > ppDrop - 1, "ITT \(ittDrop) is diluted towards 0 against \(ppDrop)")
        let ci = try #require(itt["ci"] as? [Double])
        #expect(ci[0] < ittDrop && ittDrop < ci[1] && ci[1] < 0)
        #expect(doc["followed"] as? Int == 26)
        #expect(doc["seed"] as? String == "9")
        #expect(pp["habit_mornings"] as? Int == 13 && pp["without_mornings"] as? Int == 13)
    }

    @Test("stopping early: the mornings so far are analysed, re-drawn as far as the schedule ran")
    func stopEarly() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        try history(cli)
        try start(cli, seed: 3)
        try mornings(cli, count: 12, effect: 0)
        let stop = try cli.run(["experiment", "stop"], at: "2026-04-10T20:00")
        #expect(
            stop.stdout
                == "Stopped the experiment with alcohol after 12 of 28 mornings; 'recoverydeck experiment result' analyses them.\n"
        )
        #expect(try cli.run(["experiment", "tonight"], at: "2026-04-10T20:00").status == 1)
        let doc = try json(try cli.run(["experiment", "result", "--json"], at: "2026-04-10T20:00").stdout)
        #expect(doc["mornings_run"] as? Int == 12)
        #expect(doc["stopped_early"] as? Bool == true)
        let itt = try #require(doc["by_assignment"] as? [String: Any])
        #expect((itt["habit_mornings"] as? Int ?? 0) + (itt["without_mornings"] as? Int ?? 0) == 12)
        #expect(doc["tier"] is NSNull, "no planted effect: no T4 claim")
        let again = try cli.run(["experiment", "stop"], at: "2026-04-10T21:00")
        #expect(again.status == 1)
        #expect(
            again.stderr == "recoverydeck experiment stop: no experiment is running, so there is nothing to stop.\n")
    }
}

import Foundation
import RecoveryCore
import Store
import Testing

/// `findings` and `calibrate` as a person runs them (RecoveryDeck DESIGN §6, Health Engine README).
struct InsightsCommandTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Writes a synthetic person's first `count` days (planted physiology as measured values) to the database.
    func fill(_ cli: RecoveryDeckProcess, person: SyntheticPerson, count: Int, lastRMSSD: ((Double) -> Double)? = nil)
        throws
    {
        let store = try Store(path: cli.databasePath)
        var records = person.plantedRecords(count: count)
        if let lastRMSSD {
            // The last morning's rMSSD as a function of the mean of the mornings before it.
            let before = records.dropLast().compactMap { $0.measurement?.hrv?.rmssdMs }
            let mean = before.reduce(0, +) / Double(before.count)
            records[records.count - 1].measurement!.hrv!.rmssdMs = lastRMSSD(mean)
        }
        try store.saveImportedDays(records, source: "synthetic", recordedAt: 0)
    }

    @Test("findings waits for today's check-in (spec §6.3 gate)")
    func gate() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let refused = try cli.run(["findings"], at: "2026-03-10T07:00")
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix("recoverydeck findings: Today's check-in comes first"))
    }

    @Test("with 20 days findings says 0 tested and how many more days each analysis needs")
    func notEnoughDataYet() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        try fill(cli, person: SyntheticPerson(seed: 1), count: 20)  // 2026-01-01 … 2026-01-20
        let out = try cli.run(["findings"], at: "2026-01-20T08:00")
        #expect(out.status == 0)
        let lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "0 tested, 0 survived")
        #expect(out.stdout.contains("Not enough data yet:"))
        // The norm holds the 19 days before today: 2 more for a deviation statement (21).
        #expect(out.stdout.contains("rMSSD against baseline (T0): 19 of 21 days in the last 60; 2 more days"))
        #expect(out.stdout.contains("for 60 days with both values; the closest has 20: 40 more days"))
        #expect(out.stdout.contains("for 90 days with both values; the closest has 19: 71 more days"))
        #expect(out.stdout.contains("order in time (T3): judged from 90 days; at least 70 more days"))
    }

    @Test("120 days with planted habits: the family size comes first, alcohol's effect on rMSSD is a finding")
    func plantedFinding() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        try fill(cli, person: SyntheticPerson(seed: 3), count: 120)  // through 2026-04-30
        let now = "2026-04-30T08:00"
        let text = try cli.run(["findings", "--resamples", "500"], at: now)
        #expect(text.status == 0)
        let first = String(text.stdout.split(separator: "\n").first ?? "")
        #expect(first.range(of: #"^\d+ tested, \d+ survived$"#, options: .regularExpression) != nil, "\(first)")
        #expect(text.stdout.contains("alcohol × rMSSD, lag 0: r = -0."))
        let doc = try json(try cli.run(["findings", "--json", "--resamples", "500"], at: now).stdout)
        let findings = try #require(doc["findings"] as? [[String: Any]])
        let alcohol = try #require(
            findings.first { $0["feature"] as? String == "habit:alcohol" && $0["outcome"] as? String == "rmssd" })
        #expect((alcohol["r"] as? Double ?? 0) < -0.25)
        #expect((alcohol["q"] as? Double ?? 1) <= 0.10)
        #expect((alcohol["ci"] as? [Double])?.count == 2)
        #expect(["T1", "T2", "T3"].contains(alcohol["tier"] as? String ?? ""))
        let family = try #require(doc["family"] as? [[String: Any]])
        let shiftFamily = try #require(doc["shift_family"] as? [[String: Any]])
        #expect(shiftFamily.count == 5)  // one shift test per morning metric at 120 days
        // The headline counts the questions (habits and inputs, shifts); the checks are counted on their own.
        let questions = family.filter { $0["family"] as? String == "questions" }
        #expect(doc["tested"] as? Int == questions.count + shiftFamily.count)
        #expect(doc["checks_tested"] as? Int == family.count - questions.count)
        #expect(family.count > questions.count)
        #expect(text.stdout.contains("\nChecks (pairs related by definition, metrics against each other): "))
        #expect(doc["headline"] as? String == first)
    }

    @Test("status states a T0 deviation in the tier's words once 21 days of baseline exist")
    func statusShowsDeviation() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        try fill(cli, person: SyntheticPerson(seed: 2), count: 40) { mean in 0.6 * mean }  // through 2026-02-09
        let out = try cli.run(["status"], at: "2026-02-09T08:00")
        #expect(out.status == 0)
        #expect(out.stdout.contains("T0            Your rMSSD was 40 % below baseline."), "\(out.stdout)")
    }

    @Test("calibrate prints naive and engine rates; --json carries the keys and the settings")
    func calibrate() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let args = ["calibrate", "--rho", "0.7", "--n", "120", "--trials", "100", "--resamples", "200", "--seed", "3"]
        let text = try cli.run(args)
        #expect(text.status == 0)
        #expect(text.stdout.contains("naive Pearson t-test"))
        let doc = try json(try cli.run(args + ["--json"]).stdout)
        for key in ["naive_fpr", "engine_fpr", "rho", "n", "trials", "resamples", "seed"] {
            #expect(doc[key] != nil, "missing \(key)")
        }
        // 100 trials at ρ = 0.7: the naive test rejects ≈ 23 % (SE 4 %), far above the engine's ≈ 5 %.
        #expect((doc["naive_fpr"] as? Double ?? 0) > (doc["engine_fpr"] as? Double ?? 1) + 0.08)
        let power = try json(try cli.run(args + ["--effect", "0.4", "--json"]).stdout)
        #expect(power["naive_power"] != nil && power["engine_power"] != nil && power["naive_fpr"] == nil)
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))  // no database needed or made
    }

    @Test("calibrate refuses bad numbers with one sentence and exit 64")
    func calibrateBadInput() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        for (args, message) in [
            (["--rho", "1.5", "--n", "90"], "--rho must lie strictly between -1 and 1."),
            (["--n", "90"], "--rho is required."),
            (["--rho", "0.5"], "--n is required."),
            (["--rho", "abc", "--n", "90"], "--rho must be a number, not 'abc'."),
            (["--rho", "0.5", "--n", "3"], "--n must be a whole number from 8 to 100000, not '3'."),
            (["--rho", "0.5", "--n", "90", "--effect", "-1"], "--effect must lie strictly between -1 and 1."),
        ] {
            let out = try cli.run(["calibrate"] + args)
            #expect(out.status == 64)
            #expect(out.stdout.isEmpty)
            #expect(out.stderr.hasPrefix("recoverydeck calibrate: \(message)"), "\(out.stderr)")
        }
    }
}

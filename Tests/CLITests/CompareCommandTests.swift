import Foundation
import Testing

/// `recoverydeck compare FILE` run as a person would, against a box history seeded with `import csv`.
struct CompareCommandTests {
    func write(_ text: String, _ name: String, in cli: RecoveryDeckProcess) throws -> String {
        let path = cli.directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func snapshot(_ cli: RecoveryDeckProcess) -> [Data?] {
        [cli.databasePath, cli.databasePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// The box's mornings 2026-03-01…06: 50, 60, 40, 70, 55, 45 ms.
    func seeded() throws -> RecoveryDeckProcess {
        let cli = try RecoveryDeckProcess()
        let box = try write(
            "date,rmssd\n2026-03-01,50\n2026-03-02,60\n2026-03-03,40\n2026-03-04,70\n2026-03-05,55\n2026-03-06,45\n",
            "box.csv", in: cli)
        let imported = try cli.run(["import", "csv", box, "--map", "date=date,rmssd=rmssd"])
        #expect(imported.status == 0, "\(imported.stderr)")
        return cli
    }

    // The other app reads exactly 0.8 × the box each day: 40, 48, 32, 56, 44, 36 ms. Ratio of means (box /
    // other) = 320 / 256 = 1.25; every day's ln(box) − ln(other) = ln 1.25 = 0.22314, so bias 0.223, SD 0 and
    // both limits 0.223 (ratio 1.25); the values and the changes are proportional, so Pearson, Spearman and
    // the co-movement are 1, over 6 days and 5 consecutive changes. A day only one side has (03-07) is left out.
    static let proportional =
        "Date,rMSSD (ms)\n2026-03-01,40\n2026-03-02,48\n2026-03-03,32\n2026-03-04,56\n2026-03-05,44\n2026-03-06,36\n"
        + "2026-03-07,50\n"

    @Test("an app reading 0.8 × the box: ratio 1.25, r = ρ = co-movement = 1, bias ln 1.25, and the verdict")
    func proportionalReadings() throws {
        let cli = try seeded()
        defer { cli.remove() }
        let file = try write(Self.proportional, "other.csv", in: cli)
        let before = snapshot(cli)
        let outcome = try cli.run(["compare", file])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for line in [
            "days            6", "ratio_of_means  1.250", "pearson_r       1.000", "spearman_rho    1.000",
            "co_movement_r   1.000 (5 day-to-day changes)", "ln_bias         0.223 (ratio 1.250)",
            "ln_limits       0.223 to 0.223 (ratio 1.250 to 1.250)",
            "Over 6 days: the same order of magnitude (ratio of means 1.25, between 0.5 and 2), moving together "
                + "(co-movement r 1.00, at least 0.3).",
        ] {
            #expect(outcome.stdout.contains(line), "missing \(line) in \(outcome.stdout)")
        }
        #expect(snapshot(cli) == before, "compare changed the database")

        let json = try cli.run(["compare", file, "--json"])
        #expect(json.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["n"] as? Int == 6)
        #expect(abs((object["ratio_of_means"] as? Double ?? 0) - 1.25) < 1e-12)
        #expect(abs((object["ln_bias"] as? Double ?? 0) - log(1.25)) < 1e-12)
        #expect(abs((object["pearson"] as? Double ?? 0) - 1) < 1e-12)
        #expect(object["moving_together"] as? Bool == true)
        #expect(object["same_magnitude"] as? Bool == true)
    }

    // Elite HRV's header: Rmssd is used, not its HRV score; a non-readiness row is skipped. The app reads
    // 20 ms every day but one 21: ratio of means (320 / 6) / (121 / 6) = 2.645 (outside 0.5–2); only the
    // magnitude half of the verdict is checked here.
    @Test("Elite HRV's export: Rmssd, readiness only; a ratio outside 0.5–2 is not the same order of magnitude")
    func eliteHRVHeader() throws {
        let cli = try seeded()
        defer { cli.remove() }
        var text = "Date Time Start,Type,HR,HRV,Rmssd\n"
        for (day, value) in [(1, 20), (2, 20), (3, 20), (4, 21), (5, 20), (6, 20)] {
            text += "2026-03-0\(day) 06:40:00,readiness,55,60,\(value)\n"
        }
        text += "2026-03-02 18:00:00,open,70,40,900\n"
        let outcome = try cli.run(["compare", try write(text, "elite.csv", in: cli)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("days            6"))
        #expect(outcome.stdout.contains("not the same order of magnitude (ratio of means 2.64"), "\(outcome.stdout)")
    }

    // HRV4Training's layout (spaces before the names, a blank second line, 0.0 for no reading). The app reads
    // 40, 40, 40, 39, 40, 40 (03-07's 0.0 is missing): ratio of means 320 / 239 = 1.339. Its changes
    // (0, 0, −1, +1, 0) against the box's (+10, −20, +30, −15, −10), mean −1: deviations (11, −19, 31, −14, −9)
    // against (0, 0, −1, 1, 0) give Σ = −31 − 14 = −45, Σ² 1720 and 2, r = −45 / √3440 = −0.767.
    @Test("HRV4Training's layout; changes in opposite directions are not moving together")
    func notMovingTogether() throws {
        let cli = try seeded()
        defer { cli.remove() }
        var text = " date, HR, rMSSD,\n\n"
        for (day, value) in [(1, 40), (2, 40), (3, 40), (4, 39), (5, 40), (6, 40)] {
            text += "2026-03-0\(day), 55, \(value).0,\n"
        }
        text += "2026-03-07, 0.0, 0.0,\n"
        let outcome = try cli.run(["compare", try write(text, "h4t.csv", in: cli)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.contains(
                "Over 6 days: the same order of magnitude (ratio of means 1.34, between 0.5 and 2), not moving "
                    + "together (co-movement r -0.77, under 0.3)."), "\(outcome.stdout)")
    }

    @Test("under 5 days in common is refused with a sentence, exit 1")
    func tooFewDays() throws {
        let cli = try seeded()
        defer { cli.remove() }
        let file = try write("day,hrv\n2026-03-01,40\n2026-03-02,41\n2026-03-09,41\n", "few.csv", in: cli)
        let outcome = try cli.run(["compare", file])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("2 days in common"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("needs at least 5"))
        #expect(outcome.stdout.isEmpty)
    }

    @Test("a bad file names its first bad line, cut and escaped, and changes nothing; over 16 MiB is refused")
    func badFiles() throws {
        let cli = try seeded()
        defer { cli.remove() }
        let long = String(repeating: "x", count: 200)
        let bad = [
            ("date,rmssd\n2026-03-01,40\n2026-03-02,4\u{1}x\n", "line 3: the rMSSD is not a number of ms: \"2026-03-02,4\\u{1}x\"."),
            ("date,rmssd\n2026-03-01,40\n03/02/2026,\(long)\n", "line 3: the date is not YYYY-MM-DD: \"03/02/2026,\(String(long.prefix(69)))…\"."),
            ("when,value\n2026-03-01,40\n", "line 1: the header needs a date column"),
            ("date,rmssd\n2026-03-01\n", "line 2: too few fields"),
        ]
        for (i, (text, message)) in bad.enumerated() {
            let before = snapshot(cli)
            let outcome = try cli.run(["compare", try write(text, "bad\(i).csv", in: cli)])
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(snapshot(cli) == before, "the database changed after bad file \(i)")
        }
        let big = cli.directory.appendingPathComponent("big.csv")
        try Data(count: (16 << 20) + 1).write(to: big)
        let outcome = try cli.run(["compare", big.path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("is larger than 16 MiB."), "\(outcome.stderr)")
    }
}

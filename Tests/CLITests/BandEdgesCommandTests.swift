import Foundation
import RecoveryCore
import Store
import Testing

/// Tunable band edges (`settings --band-edges`, `lights --try`) and the ln rMSSD week in `status` and
/// `history --json`, run as a person would against a hand-built history.
struct BandEdgesCommandTests {
    static let today = LocalDate(year: 2026, month: 3, day: 31)!
    static let now = "2026-03-31T08:00"

    /// A complete morning `offset` days from 2026-03-31: the given rMSSD, lying HR 55, standing 70, peak 85,
    /// every score 5. Every channel but rMSSD is constant, so its SD is floored and its z is 0: green.
    static func day(_ offset: Int, rmssd: Double) -> DayRecord {
        let date = today.adding(days: offset)
        let hrv = HRVMetrics(
            rmssdMs: rmssd, meanRRMs: 1000, meanHRBpm: 60, sdnnMs: 40, accepted: 60, rejected: 0, artifactRatio: 0)
        let measurement = MorningMeasurement(
            date: date, startedAtEpoch: 0, durationMs: 200_000, hrv: hrv, meanHRBpm: 60, quality: .ok,
            orthostaticStatus: .completed,
            orthostatic: OrthostaticResult(avgLyingHR: 55, avgStandingHR: 70, peakStandingHR: 85),
            strapAddress: nil, strapBatteryPercent: nil,
            marks: PhaseMarks(settleStartMs: 0, captureStartMs: 15_000, captureEndMs: 75_000), rawRR: [],
            heartRates: [])
        return DayRecord(
            date: date, questionnaire: Questionnaire(date: date, scores: SubjectiveScores([5, 5, 5, 5, 5])!),
            measurement: measurement)
    }

    /// The history the goldens are derived from: offsets −90…−8 alternate rMSSD 50 (even) and 70 (odd);
    /// −7…0 are 47 ms. By hand (sample SD, today not in its own norm):
    ///
    ///     day    norm mean  norm SD   7-day mean  z
    ///     03-29  58.750     10.2934   47.4286     −1.0999
    ///     03-30  58.700     10.3438   47.0000     −1.1311
    ///     03-31  58.3167    10.3441   47.0000     −1.0940
    ///     03-25…03-28: |z| 0.47, 0.50, 0.79, 0.82
    ///
    /// so under 1.0 / 1.5 the last three days' rMSSD is yellow, under 1.2 / 1.8 green; under 0.5 / 1.1 03-30 is
    /// red. `skipping` leaves days out (not stored).
    static func seeded(count: ClosedRange<Int> = -90...0, skipping: Set<Int> = []) throws -> RecoveryDeckProcess {
        let cli = try RecoveryDeckProcess()
        let store = try Store(path: cli.databasePath)
        let records = count.filter { !skipping.contains($0) }.map { o in
            day(o, rmssd: o >= -7 ? 47 : (o % 2 == 0 ? 50 : 70))
        }
        try store.saveImportedDays(records, source: "test", recordedAt: 0)
        return cli
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    func snapshot(_ cli: RecoveryDeckProcess) -> [Data?] {
        [cli.databasePath, cli.databasePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    func rmssdLight(_ cli: RecoveryDeckProcess) throws -> String? {
        let status = try cli.run(["status", "--json"], at: Self.now)
        #expect(status.status == 0, "\(status.stderr)")
        let channels = try #require(try json(status.stdout)["channels"] as? [[String: Any]])
        return channels.first { $0["channel"] as? String == "rmssd" }?["light"] as? String
    }

    @Test("a day yellow at 1.0 SD is green at 1.2 SD: settings --band-edges moves the status light and its words")
    func edgesMoveTheLight() throws {
        let cli = try Self.seeded()
        defer { cli.remove() }
        #expect(try rmssdLight(cli) == "yellow")
        let text = try cli.run(["status"], at: Self.now).stdout
        #expect(text.contains("rMSSD low"), "\(text)")
        #expect(text.contains("Band edges    yellow / red beyond 1.0 / 1.5 SD (the spec's)"), "\(text)")

        let set = try cli.run(["settings", "--band-edges", "1.2,1.8"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try rmssdLight(cli) == "green")
        let after = try cli.run(["status"], at: Self.now).stdout
        #expect(after.contains("rMSSD normal"), "\(after)")
        #expect(after.contains("Band edges    yellow / red beyond 1.2 / 1.8 SD"), "\(after)")
        let settings = try json(try cli.run(["settings", "--json"]).stdout)
        #expect(settings["band_edges"] as? String == "1.2,1.8")

        // One channel only; the others keep theirs. z −1.094 beyond 0.5 and within 1.1 … 03-31 is yellow again.
        #expect(try cli.run(["settings", "--band-edges", "rmssd=0.5,1.1"]).status == 0)
        #expect(
            try json(try cli.run(["settings", "--json"]).stdout)["band_edges"] as? String
                == "rmssd=0.5,1.1;lyingHR=1.2,1.8;gapPeak=1.2,1.8;gapAvg=1.2,1.8;subjective=1.2,1.8")
        #expect(try rmssdLight(cli) == "yellow")
        // spec goes back to 1.0,1.5 and removes the setting.
        #expect(try cli.run(["settings", "--band-edges", "spec"]).status == 0)
        #expect(try json(try cli.run(["settings", "--json"]).stdout)["band_edges"] == nil)
        #expect(try rmssdLight(cli) == "yellow")
    }

    @Test("before 60 complete days the edges are refused with one sentence and nothing changes; at 60 they are taken")
    func sixtyDayRefusal() throws {
        let cli = try Self.seeded(count: -58...0)  // 59 complete days
        defer { cli.remove() }
        let before = snapshot(cli)
        let refused = try cli.run(["settings", "--band-edges", "1.2,1.8"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "recoverydeck settings: The band edges stay at the spec's until 60 complete days are stored; "
                + "there are 59, so 1 more to go ('recoverydeck lights --try' shows what other edges would do "
                + "meanwhile).\n")
        #expect(snapshot(cli) == before, "a refused --band-edges changed the database")
        // Going back to the spec's edges is never refused.
        #expect(try cli.run(["settings", "--band-edges", "spec"]).status == 0)

        let store = try Store(path: cli.databasePath)
        try store.saveImportedDays([Self.day(-59, rmssd: 70)], source: "test", recordedAt: 0)
        let taken = try cli.run(["settings", "--band-edges", "1.2,1.8"])
        #expect(taken.status == 0, "\(taken.stderr)")
    }

    @Test("bad --band-edges and --try values exit 64 with one sentence and change nothing")
    func badInput() throws {
        let cli = try Self.seeded()
        defer { cli.remove() }
        let before = snapshot(cli)
        for bad in ["1.5,1.0", "1,1", "0,1", "-1,2", "1,3.5", "1", "1,2,3", "a,b", "", "pulse=1,2", "rmssd=2", "1,nan"]
        {
            let out = try cli.run(["settings", "--band-edges", bad])
            #expect(out.status == 64, "\(bad): \(out.stderr)")
            #expect(out.stderr.hasPrefix("recoverydeck settings: --band-edges: "), "\(bad): \(out.stderr)")
            #expect(out.stderr.split(separator: "\n").count <= 2, "\(out.stderr)")
            let tried = try cli.run(["lights", "--try", bad], at: Self.now)
            #expect(tried.status == 64, "\(bad): \(tried.stderr)")
        }
        #expect(try cli.run(["settings", "--band-edges", "pulse=1,2"]).stderr.contains("\"pulse\" is not a channel"))
        #expect(try cli.run(["lights"], at: Self.now).status == 64)
        #expect(try cli.run(["lights", "--try", "1.2,1.8", "--days", "0"], at: Self.now).status == 64)
        #expect(snapshot(cli) == before, "bad input changed the database")
    }

    @Test("lights --try 1.2,1.8 over the last 7 days: rMSSD 4 green 3 yellow becomes 7 green; three days change")
    func backTest() throws {
        let cli = try Self.seeded()
        defer { cli.remove() }
        let before = snapshot(cli)
        let out = try cli.run(["lights", "--try", "1.2,1.8", "--days", "7"], at: Self.now)
        #expect(out.status == 0, "\(out.stderr)")
        for line in [
            "Band edges in use: 1.0 / 1.5 SD (the spec's); tried: 1.2 / 1.8 SD.",
            "The 7 days 2026-03-25 to 2026-03-31, each judged as that morning's light. Nothing is changed.",
            "rMSSD       4      3      0    0      7      0      0    0      3",
            "lying HR    7      0      0    0      7      0      0    0      0",
            "composite   7      0      0    0      7      0      0    0      0",
            "3 lights would change, on 3 days:",
            "2026-03-29  rMSSD       yellow → green",
            "2026-03-30  rMSSD       yellow → green",
            "2026-03-31  rMSSD       yellow → green",
        ] {
            #expect(out.stdout.contains(line), "missing \(line) in\n\(out.stdout)")
        }
        #expect(snapshot(cli) == before, "lights changed the database")

        let doc = try json(
            try cli.run(["lights", "--try", "rmssd=0.5,1.1", "--days", "7", "--json"], at: Self.now).stdout)
        let series = try #require(doc["series"] as? [[String: Any]])
        let rmssd = try #require(series.first { $0["series"] as? String == "rmssd" })
        // Under rmssd 0.5 / 1.1: 03-25 (|z| 0.4696) stays green; 03-26 (0.5042), 03-27 (0.7865) and 03-28 (0.8192)
        // turn yellow; 03-29 (1.0999) and 03-31 (1.0940) stay yellow; 03-30 (1.1311) turns red.
        #expect((rmssd["trial"] as? [String: Int]) == ["green": 1, "yellow": 5, "red": 1, "unlit": 0])
        let changes = try #require(doc["changes"] as? [[String: String]])
        #expect(
            changes.map { "\($0["date"]!) \($0["from"]!)→\($0["to"]!)" } == [
                "2026-03-26 green→yellow", "2026-03-27 green→yellow", "2026-03-28 green→yellow",
                "2026-03-30 yellow→red",
            ])
        #expect((doc["trial"] as? [String: Any])?["spec"] as? Bool == false)
    }

    @Test("status and history --json show ln rMSSD, its 7-day mean and CV, the SWC and 7 of 7 valid")
    func lnFigures() throws {
        let cli = try Self.seeded()
        defer { cli.remove() }
        let status = try json(try cli.run(["status", "--json"], at: Self.now).stdout)
        let week = try #require(status["lnRMSSDWeek"] as? [String: Any])
        // ln 47 = 3.850148; the 7 days are all 47: mean ln 47, CV 0. SWC: 0.5 × sample SD of the 60 ln values
        // 03-01…03-31 (26 × ln 50, 26 × ln 70, 8 × ln 47) = 0.5 × 0.176544 = 0.088272.
        #expect(abs((week["lnRMSSD"] as? Double ?? 0) - log(47)) < 1e-12)
        #expect(abs((week["rollingMean7"] as? Double ?? 0) - log(47)) < 1e-12)
        #expect(abs((week["cv7Percent"] as? Double ?? 1)) < 1e-9)
        #expect(abs((week["smallestWorthwhileChange"] as? Double ?? 0) - 0.088272) < 5e-6)
        #expect(week["validMornings"] as? Int == 7)
        #expect(week["rollingMeanUnreliable"] as? Bool == false)
        let text = try cli.run(["status"], at: Self.now).stdout
        #expect(
            text.contains(
                "ln rMSSD      today 3.850, 7-day mean 3.850, 7-day CV 0.0 %, smallest worthwhile change 0.088 "
                    + "(0.5 × 60-day SD)"), "\(text)")
        #expect(text.contains("              7 of the last 7 mornings valid\n"), "\(text)")

        let history = try json(try cli.run(["history", "--json", "--days", "3"], at: Self.now).stdout)
        let days = try #require(history["days"] as? [[String: Any]])
        #expect(days.count == 3)
        for day in days {
            let w = try #require(day["lnRMSSDWeek"] as? [String: Any])
            #expect(abs((w["lnRMSSD"] as? Double ?? 0) - log(47)) < 1e-12)
            #expect(w["validMornings"] as? Int == 7)
        }
    }

    @Test("2 of the last 7 mornings: the 7-day mean is shown and marked unreliable (Plews 2014: at least 3)")
    func unreliableWeek() throws {
        let cli = try Self.seeded(skipping: Set(-6 ... -2))
        defer { cli.remove() }
        let status = try json(try cli.run(["status", "--json"], at: Self.now).stdout)
        let week = try #require(status["lnRMSSDWeek"] as? [String: Any])
        #expect(week["validMornings"] as? Int == 2)
        #expect(week["rollingMeanUnreliable"] as? Bool == true)
        #expect(abs((week["rollingMean7"] as? Double ?? 0) - log(47)) < 1e-12)
        let text = try cli.run(["status"], at: Self.now).stdout
        #expect(text.contains("7-day mean 3.850 (unreliable)"), "\(text)")
        #expect(
            text.contains("2 of the last 7 mornings valid; the 7-day mean is unreliable (fewer than 3)"), "\(text)")
        let history = try json(try cli.run(["history", "--json", "--days", "1"], at: Self.now).stdout)
        let day = try #require((history["days"] as? [[String: Any]])?.first)
        #expect((day["lnRMSSDWeek"] as? [String: Any])?["rollingMeanUnreliable"] as? Bool == true)
    }

    @Test("a full export carries the edges and restore brings them back; an export with bad edges is refused")
    func exportRestoreRoundTrip() throws {
        let cli = try Self.seeded()
        defer { cli.remove() }
        #expect(try cli.run(["settings", "--band-edges", "rmssd=1.2,1.8"]).status == 0)
        let file = cli.directory.appendingPathComponent("backup.json").path
        let exported = try cli.run(["export", "--full", "-o", file], at: Self.now)
        #expect(exported.status == 0, "\(exported.stderr)")
        let doc = try json(try String(contentsOfFile: file, encoding: .utf8))
        #expect(
            (doc["settings"] as? [String: String])?["band_edges"]
                == "rmssd=1.2,1.8;lyingHR=1.0,1.5;gapPeak=1.0,1.5;gapAvg=1.0,1.5;subjective=1.0,1.5")
        let readout = try #require(doc["readout"] as? [String: Any])
        #expect(
            ((readout["bandEdges"] as? [String: Any])?["rmssd"] as? [String: Double]) == ["yellow": 1.2, "red": 1.8])

        let fresh = try RecoveryDeckProcess()
        defer { fresh.remove() }
        let restored = try fresh.run(["restore", file])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(
            try json(try fresh.run(["settings", "--json"]).stdout)["band_edges"] as? String
                == "rmssd=1.2,1.8;lyingHR=1.0,1.5;gapPeak=1.0,1.5;gapAvg=1.0,1.5;subjective=1.0,1.5")
        #expect(try rmssdLight(fresh) == "green")

        // Hand-edited edges the box would refuse are refused on restore too, and nothing is written.
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "rmssd=1.2,1.8;lyingHR", with: "rmssd=1.8,1.2;lyingHR")
        let bad = cli.directory.appendingPathComponent("bad.json").path
        try text.write(toFile: bad, atomically: true, encoding: .utf8)
        let other = try RecoveryDeckProcess()
        defer { other.remove() }
        let refused = try other.run(["restore", bad])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("settings.band_edges is not a set of band edges"), "\(refused.stderr)")
        #expect(try other.run(["settings", "--json"]).stdout.contains("band_edges") == false)
    }
}

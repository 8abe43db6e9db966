import Foundation
import Testing

/// What a person sees from each foundation command, run as the built binary.
struct CommandBehaviourTests {
    static let scores = ["--fatigue", "5", "--mood", "6", "--soreness", "4", "--stress", "5", "--sleep", "6"]

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("status and history refuse until today's check-in, with one sentence; then show the day (spec §6.3)")
    func gate() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let now = "2026-03-10T07:00"
        for command in ["status", "history"] {
            let refused = try cli.run([command], at: now)
            #expect(refused.status == 1)
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.hasPrefix("recoverydeck \(command): Today's check-in comes first"))
        }
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath), "a refusal creates no database")
        #expect(try cli.run(["checkin"] + Self.scores + ["--habit", "alcohol", "--note", "fine"], at: now).status == 0)
        let status = try cli.run(["status"], at: now)
        #expect(status.status == 0)
        #expect(status.stdout.contains("Today: Tuesday 2026-03-10."))
        #expect(
            status.stdout.contains(
                "Check-in      done: fatigue 5, mood 6, soreness 4, life stress 5, sleep quality 6 (mean 5.2); "
                    + "habits: alcohol"
            ))
        #expect(status.stdout.contains("Measurement   not yet"))
        #expect(status.stdout.contains("subjective    green (absolute)"))
        #expect(status.stdout.contains("Composite     building (rough signal — not medical)"))
        #expect(status.stdout.contains("Baselines     building: 0 of 14 complete days"))
        // The next local day the gate is closed again; yesterday's check-in does not open it.
        let tomorrow = try cli.run(["history"], at: "2026-03-11T00:05")
        #expect(tomorrow.status == 1)
    }

    @Test("today is the local calendar day of the system time zone (TZ), not UTC")
    func todayFollowsTimeZone() throws {
        var cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        // 2026-03-10 23:30 in Stockholm (UTC+1) is 22:30 UTC; in Auckland (UTC+13) it is 11:30 on the 11th.
        #expect(try cli.run(["checkin"] + Self.scores, at: "2026-03-10T23:30").status == 0)
        cli.environment["TZ"] = "Pacific/Auckland"
        let export = try json(try cli.run(["export"]).stdout)
        let days = try #require(export["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == ["2026-03-10"])
        // Without a stated time, today comes from the clock: check-in and status agree on the day.
        let fresh = try RecoveryDeckProcess()
        defer { fresh.remove() }
        #expect(try fresh.run(["checkin"] + Self.scores).status == 0)
        #expect(try fresh.run(["status"]).status == 0)
    }

    @Test("status --json carries each channel, the composite label and the building progress")
    func statusJSON() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        #expect(try cli.run(["checkin"] + Self.scores, at: "2026-03-10T07:00").status == 0)
        let status = try json(try cli.run(["status", "--json"], at: "2026-03-10T07:00").stdout)
        #expect(status["compositeLabel"] as? String == "rough signal — not medical")
        #expect(status["composite"] as? String == "building")
        #expect(status["completeDaysInNorm"] as? Int == 0)
        #expect(status["completeDaysNeeded"] as? Int == 14)
        let channels = try #require(status["channels"] as? [[String: Any]])
        #expect(channels.map { $0["channel"] as? String } == ["rmssd", "lyingHR", "gapPeak", "gapAvg", "subjective"])
        #expect(channels.last?["light"] as? String == "green")
    }

    @Test("history lists every calendar day, a day without data says so, never filled in")
    func history() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        #expect(try cli.run(["checkin"] + Self.scores, at: "2026-03-07T07:00").status == 0)
        #expect(
            try cli.run(
                ["checkin", "--fatigue", "1", "--mood", "2", "--soreness", "3", "--stress", "4", "--sleep", "5"],
                at: "2026-03-10T07:00"
            ).status == 0)
        let outcome = try cli.run(["history", "--days", "5"], at: "2026-03-10T07:00")
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("date        check-in"))
        #expect(lines[1].hasPrefix("2026-03-06  no record"))
        #expect(lines[2].hasPrefix("2026-03-07  5.2 "))
        #expect(lines[3] == "2026-03-08  no record")
        #expect(lines[5].hasPrefix("2026-03-10  3.0 "))
        let days = try #require(
            try json(try cli.run(["history", "--json", "--days", "2"], at: "2026-03-10T07:00").stdout)["days"]
                as? [[String: Any]])
        #expect(days.count == 2)
        #expect(days[0]["stored"] as? Bool == false)
        #expect(days[0]["rmssdMs"] is NSNull)
    }

    /// Hand-computed vector: accepted 1000, 1010, 990, 1000, 1020, 1010 (250 fails the 300 ms range rule;
    /// 1500 differs from the previous accepted 1020 by 480 > 20 %). Pairs adjacent in the file: 10, −20, 10, 20
    /// (1020 and the last 1010 have two rejected beats between them): Σd² = 1000 over 4 pairs, rMSSD = √250 =
    /// 15.811388; mean RR = 6030/6 = 1005, mean HR = 60000/1005 = 59.701493;
    /// SDNN = √(550/5) = 10.488088; rejected 2 of 8, ratio 0.25 > 0.20 → too_many_artifacts (spec §5.1).
    static let vector = [1000, 1010, 990, 1000, 1020, 250, 1500, 1010]

    @Test("rr analyze reproduces a hand-computed vector from a list, a CSV rr column and standard input (spec §5.1)")
    func rrAnalyze() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let list = Self.vector.map(String.init).joined(separator: "\n") + "\n"
        try ("# RR in ms\n" + list).write(
            to: cli.directory.appendingPathComponent("rr.txt"), atomically: true, encoding: .utf8)
        let csv = "time_s,rr,hr\r\n" + Self.vector.enumerated().map { "\($0),\($1),60" }.joined(separator: "\r\n")
        try csv.write(to: cli.directory.appendingPathComponent("rr.csv"), atomically: true, encoding: .utf8)
        for (args, input) in [(["rr.txt"], ""), (["rr.csv"], ""), (["-"], list)] {
            let outcome = try cli.run(["rr", "analyze", "--json", "--rule", "spec-20"] + args, input: input)
            #expect(outcome.status == 0, "\(args): \(outcome.stderr)")
            let r = try json(outcome.stdout)
            let tolerance = 1e-6
            #expect(abs((r["rmssd_ms"] as? Double ?? 0) - 15.811388) < tolerance)
            #expect(r["pairs"] as? Int == 4 && r["rmssd_method"] as? String == "adjacent_pairs")
            #expect(abs((r["mean_rr_ms"] as? Double ?? 0) - 1005) < tolerance)
            #expect(abs((r["mean_hr_bpm"] as? Double ?? 0) - 59.701493) < tolerance)
            #expect(abs((r["sdnn_ms"] as? Double ?? 0) - 10.488088) < tolerance)
            #expect(r["accepted"] as? Int == 6 && r["rejected"] as? Int == 2)
            #expect(abs((r["artifact_ratio"] as? Double ?? 0) - 0.25) < 1e-12)
            #expect(r["quality"] as? String == "too_many_artifacts")
            #expect(
                outcome.stderr
                    == "Quality fails: 2 of 8 intervals rejected as artifacts (25.0 %); more than 20 % fails.\n")
        }
        let text = try cli.run(["rr", "analyze", "--rule", "spec-20", "rr.txt"])
        #expect(text.stdout.contains("rmssd_ms        15.811\n"))
        #expect(text.stdout.contains("quality         too_many_artifacts\n"))
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath), "rr analyze does not need the database")
    }

    @Test("rr analyze --window morning applies the settle and the 60 s window on the cumulative RR clock")
    func rrAnalyzeMorning() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        // 14 beats of 1060 ms end at 14 840 ms, inside the 15 s settle: they only prime the filter. Then
        // alternating 1000/1020 ms: every successive difference is 20 ms, so rMSSD is exactly 20; the window
        // closes on the beat that brings the accepted sum to ≥ 60 000 ms (60 beats: 60 600 ms).
        let rr = Array(repeating: 1060, count: 14) + (0..<180).map { $0 % 2 == 0 ? 1000 : 1020 }
        try rr.map(String.init).joined(separator: "\n").write(
            to: cli.directory.appendingPathComponent("m.txt"), atomically: true, encoding: .utf8)
        let whole = try json(try cli.run(["rr", "analyze", "--json", "m.txt"]).stdout)
        let morning = try json(try cli.run(["rr", "analyze", "--json", "--window", "morning", "m.txt"]).stdout)
        #expect(whole["accepted"] as? Int == 194)
        #expect(morning["accepted"] as? Int == 60)
        #expect(morning["rejected"] as? Int == 0)
        #expect(morning["quality"] as? String == "ok")
        #expect(abs((morning["rmssd_ms"] as? Double ?? 0) - 20) < 1e-9)
        #expect(abs((morning["mean_rr_ms"] as? Double ?? 0) - 1010) < 1e-9)
        #expect(morning["window"] as? String == "morning")
    }

    @Test("rr analyze reads other tools' files: Polar Sensor Logger, Welltory, Kubios seconds (said), a BOM and CRLF")
    func rrAnalyzeFormats() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let vector = Self.vector.map(Double.init)
        let files = [
            "polar.txt": "Phone timestamp;RR-interval [ms]\n"
                + vector.enumerated().map { "2026-03-01T06:40:0\($0).000;\(Int($1))" }.joined(separator: "\n"),
            "welltory.txt": vector.map { String(Int($0)) }.joined(separator: " "),
            "kubios.txt": "# Kubios HRV\n# RR (s)\n" + vector.map { "\($0 / 1000)" }.joined(separator: "\r\n"),
            "bom.csv": "\u{FEFF}time,rr\r\n" + vector.enumerated().map { "\($0),\(Int($1))" }.joined(separator: "\r\n"),
        ]
        for (name, text) in files {
            try text.write(to: cli.directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let outcome = try cli.run(["rr", "analyze", "--json", "--rule", "spec-20", name])
            #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
            let r = try json(outcome.stdout)
            #expect(abs((r["rmssd_ms"] as? Double ?? 0) - 15.811388) < 1e-6, "\(name)")
            #expect(r["accepted"] as? Int == 6 && r["rejected"] as? Int == 2, "\(name)")
            let said = outcome.stderr.contains("\(name): read as seconds (every value is below 3) and converted to ms.")
            #expect(said == (name == "kubios.txt"), "\(name): \(outcome.stderr)")
        }
    }

    @Test("rr analyze refuses a constant series (a file of 1000 ms lines) with one sentence, exit 1")
    func rrAnalyzeConstant() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        try String(repeating: "1000\n", count: 1000).write(
            to: cli.directory.appendingPathComponent("flat.txt"), atomically: true, encoding: .utf8)
        let outcome = try cli.run(["rr", "analyze", "flat.txt"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("flat.txt has every interval equal (1000 × 1000.0 ms): a constant series"))
    }

    @Test("rr analyze explains a failed quality in words true of a file, not the box's strap advice (spec §5.1)")
    func rrAnalyzeQualityWords() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        // 40 beats of 1000 and 1010 ms: whole file, 40 accepted, 40 200 ms and 39 pairs, under every floor.
        try (0..<40).map { $0 % 2 == 0 ? "1000" : "1010" }.joined(separator: "\n").write(
            to: cli.directory.appendingPathComponent("short.txt"), atomically: true, encoding: .utf8)
        let whole = try cli.run(["rr", "analyze", "short.txt"])
        #expect(whole.status == 0)
        #expect(whole.stdout.contains("quality         too_few_beats\n"))
        #expect(
            whole.stderr
                == "Quality fails: 40 intervals accepted, 40200 ms in all, 39 adjacent pairs; a reading needs at least "
                + "45, 60000 ms and 33 pairs.\n")
        // With the morning window, 14 s of RR lie within the 15 s settle: nothing is captured.
        try (0..<14).map { $0 % 2 == 0 ? "1000" : "1010" }.joined(separator: "\n").write(
            to: cli.directory.appendingPathComponent("settle.txt"), atomically: true, encoding: .utf8)
        let settle = try cli.run(["rr", "analyze", "--window", "morning", "--json", "settle.txt"])
        #expect(settle.status == 0)
        #expect(try json(settle.stdout)["quality"] as? String == "rr_unavailable")
        #expect(
            settle.stderr == "Quality fails: no interval reached the capture; the file ends within the 15 s settle.\n")
    }

    @Test("export writes JSON with protocolVersion 2, CSV one row per day, and -o a 0600 file")
    func export() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        for day in ["2026-03-08", "2026-03-09"] {
            #expect(
                try cli.run(["checkin", "--note", "a, \"quoted\" note"] + Self.scores, at: "\(day)T07:00").status
                    == 0)
        }
        let plain = try cli.run(["export"])
        #expect(plain.status == 0 && plain.stderr.isEmpty)
        let document = try json(plain.stdout)
        #expect(document["protocolVersion"] as? Int == 2)
        #expect((document["days"] as? [Any])?.count == 2)
        #expect(document["analytics"] == nil)
        let full = try json(try cli.run(["export", "--full"]).stdout)
        #expect(full["analytics"] is [Any] && full["settings"] is [String: Any])
        let csv = try cli.run(["export", "--format", "csv"]).stdout
        let rows = csv.split(separator: "\n")
        #expect(rows.count == 3)
        #expect(rows[1].hasPrefix("2026-03-08,false,5,6,4,5,6,5.2,,,,,\"a, \"\"quoted\"\" note\","))
        let written = try cli.run(["export", "-o", "backup.json", "--full"])
        #expect(written.status == 0 && written.stdout.isEmpty)
        #expect(written.stderr == "Exported 2 days to backup.json.\n")
        let path = cli.directory.appendingPathComponent("backup.json").path
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try json(String(contentsOfFile: path, encoding: .utf8))["full"] as? Bool == true)
    }

    @Test("delete --day removes one day; delete --all --yes leaves no trace of the note in the file")
    func delete() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let note = "PANGOLIN-4411-distinctive"
        for day in ["2026-03-08", "2026-03-09", "2026-03-10"] {
            #expect(try cli.run(["checkin", "--note", note] + Self.scores, at: "\(day)T07:00").status == 0)
        }
        let one = try cli.run(["delete", "--day", "2026-03-09", "--yes"])
        #expect(one.status == 0 && one.stderr == "Deleted everything stored for 2026-03-09.\n")
        let dates = (try json(try cli.run(["export"]).stdout)["days"] as? [[String: Any]])?.map {
            $0["date"] as? String
        }
        #expect(dates == ["2026-03-08", "2026-03-10"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.databasePath)).range(of: Data(note.utf8)) != nil)
        let all = try cli.run(["delete", "--all", "--yes"])
        #expect(all.status == 0)
        #expect(all.stderr.hasPrefix("Deleted all data"))
        let exported = try json(try cli.run(["export"]).stdout)
        #expect((exported["days"] as? [Any])?.isEmpty == true)
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: cli.databasePath + suffix) {
                #expect(data.range(of: Data(note.utf8)) == nil, "the note remains in \(suffix)")
            }
        }
    }

    @Test("analytics summarises check-ins per score; --json is machine-readable")
    func analytics() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        #expect(try cli.run(["checkin"] + Self.scores, at: "2026-03-09T07:00").status == 0)
        #expect(
            try cli.run(
                ["checkin", "--fatigue", "7", "--mood", "6", "--soreness", "4", "--stress", "5", "--sleep", "6"],
                at: "2026-03-10T07:00"
            ).status == 0)
        let summary = try json(try cli.run(["analytics", "--json"], at: "2026-03-10T08:00").stdout)
        #expect(summary["checkins"] as? Int == 2)
        let distribution = try #require(summary["distribution"] as? [String: [Int]])
        #expect(distribution["fatigue"] == [0, 0, 0, 0, 1, 0, 1])
        #expect(distribution["mood"] == [0, 0, 0, 0, 0, 2, 0])
        #expect(summary["mornings"] as? Int == 0)
        #expect(summary["qualityFailRate"] is NSNull, "no captures: the rate is missing, not 0")
        let text = try cli.run(["analytics"])
        #expect(text.stdout.contains("Check-ins               2"))
    }

    @Test("settings: the habit list starts as the starter list; a new list is what checkin accepts")
    func settings() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let shown = try cli.run(["settings"])
        #expect(shown.stdout == "habits                alcohol,late-caffeine,hard-training,late-night,illness\n")
        let saved = try cli.run([
            "settings", "--habits", "alcohol,sauna", "--display-name", "Zach", "--reminder", "6:30",
        ])
        #expect(saved.status == 0 && saved.stderr == "Saved habits, display_name, reminder_time.\n")
        let settings = try json(try cli.run(["settings", "--json"]).stdout)
        #expect(settings["habits"] as? String == "alcohol,sauna")
        #expect(settings["reminder_time"] as? String == "06:30")
        #expect(try cli.run(["checkin", "--habit", "sauna"] + Self.scores).status == 0)
        let refused = try cli.run(["checkin", "--habit", "illness"] + Self.scores)
        #expect(refused.status == 64)
        #expect(
            refused.stderr.hasPrefix(
                "recoverydeck checkin: unknown habit 'illness'; the configured habits are alcohol, sauna."))
        let status = try cli.run(["status"])
        #expect(status.stdout.hasPrefix("Good morning, Zach.\n"))
        #expect(try cli.run(["settings", "--display-name", "", "--reminder", "off"]).status == 0)
        let off = try json(try cli.run(["settings", "--json"]).stdout)
        #expect(off.keys.sorted() == ["habits", "reminder_time"] && off["reminder_time"] as? String == "off")
    }

    @Test("checkin replaces the day's answers when given again, and says so")
    func checkinReplaces() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let now = "2026-03-10T07:00"
        let first = try cli.run(["checkin"] + Self.scores, at: now)
        #expect(first.stderr.hasPrefix("Saved the check-in for 2026-03-10"))
        let second = try cli.run(
            ["checkin", "--fatigue", "1", "--mood", "1", "--soreness", "1", "--stress", "1", "--sleep", "1"], at: now)
        #expect(
            second.stderr
                == "Replaced the check-in for 2026-03-10: fatigue 1, mood 1, soreness 1, life stress 1, "
                + "sleep quality 1 (mean 1.0).\n"
        )
        let days = try #require(try json(try cli.run(["export"]).stdout)["days"] as? [[String: Any]])
        #expect(days.count == 1)
        #expect((days[0]["questionnaire"] as? [String: Any])?["fatigue"] as? Int == 1)
    }

    @Test("demo shows today's lights and two weeks from a temporary database, and leaves nothing behind")
    func demo() throws {
        var cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let scratch = cli.directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        cli.environment["TMPDIR"] = scratch.path
        let outcome = try cli.run(["demo"], at: "2026-03-10T07:00")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("Today: Tuesday 2026-03-10."))
        #expect(outcome.stdout.contains("(rough signal — not medical)"))
        #expect(outcome.stdout.contains("Baselines     ready:"))
        let history = outcome.stdout.components(separatedBy: "The last two weeks:\n")
        #expect(history.count == 2)
        // The header and 14 days; the demo's person ends in a run of mornings unlike them, said under the table.
        let rows = history.last?.split(separator: "\n").filter { !$0.hasPrefix("◆") } ?? []
        #expect(rows.count == 15)
        #expect(rows.last?.hasPrefix("2026-03-10") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath), "the person's database is not touched")
        // The same seed gives the same person.
        let again = try cli.run(["demo"], at: "2026-03-10T07:00")
        #expect(again.stdout == outcome.stdout)
    }
}

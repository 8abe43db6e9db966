import Foundation
import TestSupport
import Testing

/// `recoverydeck import csv|rr` run as a person would: a malformed file leaves the database
/// byte-identical, a dry run changes nothing, and a day the box recorded is kept without --force.
struct ImportCommandTests {
    /// The database file and its write-ahead log, as bytes (a change to either is a change).
    func snapshot(_ cli: RecoveryDeckProcess) -> [Data?] {
        [cli.databasePath, cli.databasePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    func write(_ text: String, _ name: String, in cli: RecoveryDeckProcess) throws -> String {
        let path = cli.directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func prepared() throws -> RecoveryDeckProcess {
        let cli = try RecoveryDeckProcess()
        // A box questionnaire on 2026-03-02 (the person's own record).
        let checkin = try cli.run(
            ["checkin", "--fatigue", "4", "--mood", "4", "--soreness", "4", "--stress", "4", "--sleep", "4"],
            at: "2026-03-02T07:00")
        #expect(checkin.status == 0, "\(checkin.stderr)")
        return cli
    }

    @Test("each malformed CSV leaves the database byte-identical and names its first bad line, exit 1")
    func malformedCSVChangesNothing() throws {
        let cli = try prepared()
        defer { cli.remove() }
        let bad = [
            ("Date,rMSSD\n2026-03-01,55\n2026-03-03,abc\n", "line 3: rmssd 'abc' is not a number."),
            // 2026-13-01 alone would be read as YYYY-DD-MM (a middle field above 12 decides the order).
            ("Date,rMSSD\n2026-03-01,55\n2026-13-14,50\n", "line 3: '2026-13-14' is not a real day"),
            ("Date,rMSSD\n2026-03-01,55\n2999-03-02,50\n", "line 3: 2999-03-02 is after today"),
            ("Date,rMSSD\n2026-03-01,55,9\n", "line 2: 3 fields where the header has 2."),
            ("Date,rMSSD\n2026-03-01,55\n2026-03-01,54\n", "line 3: 2026-03-01 is already on line 2"),
            ("Date,rMSSD\n2026-03-01,900\n", "line 2: rmssd 900 is outside"),
        ]
        for (i, (text, message)) in bad.enumerated() {
            let before = snapshot(cli)
            let file = try write(text, "bad\(i).csv", in: cli)
            let outcome = try cli.run(["import", "csv", file, "--map", "date=Date,rmssd=rMSSD"])
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("Nothing was imported."))
            #expect(snapshot(cli) == before, "the database changed after bad file \(i)")
        }
    }

    @Test("a malformed RR folder leaves the database byte-identical, exit 1")
    func malformedRRChangesNothing() throws {
        let cli = try prepared()
        defer { cli.remove() }
        let folder = cli.directory.appendingPathComponent("rr")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try (0..<100).map { $0 % 2 == 0 ? "1000\n" : "1010\n" }.joined().write(
            to: folder.appendingPathComponent("2026-03-01.txt"), atomically: true, encoding: .utf8)
        try "1000\n1010\n10x0\n".write(
            to: folder.appendingPathComponent("2026-03-03.txt"), atomically: true, encoding: .utf8)
        let before = snapshot(cli)
        let outcome = try cli.run(["import", "rr", folder.path])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("2026-03-03.txt line 3: '10x0' is not an RR interval in milliseconds."),
            "\(outcome.stderr)")
        #expect(snapshot(cli) == before)
        // A constant series (every beat 1000 ms) is not a morning: refused with a sentence, nothing imported.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("2026-03-03.txt"))
        try String(repeating: "1000\n", count: 1000).write(
            to: folder.appendingPathComponent("2026-03-04.txt"), atomically: true, encoding: .utf8)
        let flat = try cli.run(["import", "rr", folder.path])
        #expect(flat.status == 1)
        #expect(flat.stderr.contains("2026-03-04.txt has every interval equal (1000 × 1000.0 ms)"), "\(flat.stderr)")
        #expect(flat.stderr.contains("Nothing was imported."))
        #expect(snapshot(cli) == before)
    }

    @Test("import rr reads Polar Sensor Logger and seconds files, says so, and stores their rMSSD over adjacent pairs")
    func otherToolsFiles() throws {
        let cli = try prepared()
        defer { cli.remove() }
        let folder = cli.directory.appendingPathComponent("rr")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // 100 beats alternating 1000/1020 with one 1600 (rejected by either rule: 5·580 > 1020, and 57 % above both
        // neighbours) in the middle: 98 pairs of ±20
        // → rMSSD 20 exactly (the old rule would span the rejected beat with a difference of 0 or 40).
        var beats = (0..<100).map { $0 % 2 == 0 ? 1000.0 : 1020.0 }
        beats[50] = 1600
        let polar =
            "Phone timestamp;RR-interval [ms]\n"
            + beats.enumerated().map { "2026-03-05T06:40:\($0 % 60).000;\(Int($1))" }.joined(separator: "\n")
        try polar.write(to: folder.appendingPathComponent("2026-03-05.txt"), atomically: true, encoding: .utf8)
        try beats.map { "\($0 / 1000)" }.joined(separator: "\r\n").write(
            to: folder.appendingPathComponent("2026-03-06.txt"), atomically: true, encoding: .utf8)
        let outcome = try cli.run(["import", "rr", folder.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("2026-03-06.txt: read as seconds (every value is below 3) and converted to ms."))
        #expect(!outcome.stderr.contains("2026-03-05.txt: read as seconds"))
        let exported = try cli.run(["export"])
        let document = try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any]
        let days = document?["days"] as? [[String: Any]] ?? []
        for date in ["2026-03-05", "2026-03-06"] {
            let hrv =
                (days.first { $0["date"] as? String == date }?["measurement"] as? [String: Any])?["hrv"]
                as? [String: Any]
            #expect(hrv?["rmssdMethod"] as? String == "adjacent_pairs", "\(date)")
            // Stored raw RR are whole 1/1024 s, so the imported value is within a quantisation step of 20.
            #expect(abs((hrv?["rmssdMs"] as? Double ?? 0) - 20) < 1, "\(date): \(String(describing: hrv))")
        }
    }

    @Test("dry run prints the plan and changes nothing; the import keeps the box's day unless --force")
    func dryRunAndForce() throws {
        let cli = try prepared()
        defer { cli.remove() }
        let file = try write("Date,rMSSD\n2026-03-01,55\n2026-03-02,60\n", "h.csv", in: cli)
        let before = snapshot(cli)
        let dry = try cli.run(["import", "csv", file, "--map", "date=Date,rmssd=rMSSD", "--dry-run"])
        #expect(dry.status == 0)
        #expect(
            dry.stdout
                == "2026-03-01  add: rMSSD 55.0 ms\n2026-03-02  keep the box's record (--force replaces it): rMSSD 60.0 ms\n"
        )
        #expect(dry.stderr.contains("Dry run, nothing changed: 1 added"))
        #expect(snapshot(cli) == before)

        let real = try cli.run(["import", "csv", file, "--map", "date=Date,rmssd=rMSSD"])
        #expect(real.status == 0, "\(real.stderr)")
        #expect(
            real.stderr.contains("1 added, 0 replaced (imported before), 0 box records replaced, 1 box records kept"))
        // Importing the same file again replaces the imported day and still keeps the box's.
        let again = try cli.run(["import", "csv", file, "--map", "date=Date,rmssd=rMSSD"])
        #expect(again.stdout.hasPrefix("2026-03-01  replace (imported before)"))
        let forced = try cli.run(["import", "csv", file, "--map", "date=Date,rmssd=rMSSD", "--force"])
        #expect(forced.stdout.contains("2026-03-02  replace the box's record (--force)"))
    }

    @Test("a check-in on an imported day makes it the box's: a second import keeps it; history says which is which")
    func checkinClaimsAnImportedDay() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let file = try write(
            "Date,rMSSD,Fatigue,Mood,Soreness,Stress,Sleep\n2026-03-01,55,2,2,2,2,2\n2026-03-02,60,2,2,2,2,2\n",
            "h.csv", in: cli)
        let map = "date=Date,rmssd=rMSSD,fatigue=Fatigue,mood=Mood,soreness=Soreness,stress=Stress,sleep=Sleep"
        #expect(try cli.run(["import", "csv", file, "--map", map]).status == 0)
        let checkin = try cli.run(
            ["checkin", "--fatigue", "6", "--mood", "6", "--soreness", "6", "--stress", "6", "--sleep", "6"],
            at: "2026-03-02T07:00")
        #expect(checkin.status == 0, "\(checkin.stderr)")
        let again = try cli.run(["import", "csv", file, "--map", map])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("2026-03-02  keep the box's record"), "\(again.stdout)")
        let history = try cli.run(["history", "--days", "2", "--json"], at: "2026-03-02T08:00")
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("\"subjectiveMean\": 6"), "the person's own check-in survived the import")
        let text = try cli.run(["history", "--days", "2"], at: "2026-03-02T08:00")
        let rows = text.stdout.split(separator: "\n").filter { $0.hasPrefix("2026-03-0") }
        #expect(rows.count == 2)
        #expect(rows.first?.hasSuffix("import") == true, "\(text.stdout)")
        #expect(rows.last?.hasSuffix("box") == true, "\(text.stdout)")
    }

    @Test("a dry run before the box has a database shows every day as added and creates no database")
    func dryRunCreatesNothing() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let file = try write("Date,rMSSD\n2026-03-01,55\n", "h.csv", in: cli)
        let dry = try cli.run(["import", "csv", file, "--map", "date=Date,rmssd=rMSSD", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout == "2026-03-01  add: rMSSD 55.0 ms\n")
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
    }

    @Test("usage errors exit 64 before the database is touched")
    func usage() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let file = try write("Date,rMSSD\n2026-03-01,55\n", "h.csv", in: cli)
        #expect(try cli.run(["import", "csv", file]).status == 64)
        #expect(try cli.run(["import", "csv", file, "--map", "date=Date,pulse=2"]).status == 64)
        #expect(try cli.run(["import", "rr"]).status == 64)
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
    }

    @Test("lying HR alone comes across and shows in history; the dry run and the import say what came and what did not")
    func lyingHRAloneAndTheReport() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let file = try write(" Date , Resting HR ,Steps,\n2026-03-01,52,8000,\n2026-03-02,53,,\n", "rhr.csv", in: cli)
        let map = "date=Date,lying_hr=Resting HR"
        let dry = try cli.run(["import", "csv", file, "--map", map, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("Came across: lying_hr from \"Resting HR\" (2 mornings)."), "\(dry.stderr)")
        #expect(dry.stderr.contains("Left out: \"Steps\": --map names no field for it."), "\(dry.stderr)")
        let real = try cli.run(["import", "csv", file, "--map", map])
        #expect(real.status == 0 && real.stderr.contains("Came across: lying_hr"), "\(real.stderr)")
        #expect(
            try cli.run(
                ["checkin", "--fatigue", "4", "--mood", "4", "--soreness", "4", "--stress", "4", "--sleep", "4"],
                at: "2026-03-03T07:00"
            ).status == 0)
        let history = try cli.run(["history", "--days", "3", "--json"], at: "2026-03-03T08:00")
        #expect(
            history.stdout.contains("\"lyingHR\":52") || history.stdout.contains("\"lyingHR\": 52"), "\(history.stdout)"
        )
    }

    @Test("a morning with over 5 % of its beats rejected is counted but graded fair, with the share, in status and export")
    func fairGrade() throws {
        let cli = try prepared()
        defer { cli.remove() }
        let folder = cli.directory.appendingPathComponent("rr")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Alternating 1000/1020 with a missed beat (1000 + 1020 read as one) every 10th interval: about 1 in 10
        // beats rejected, well over 5 % and under the 20 % that fails.
        var beats: [Int] = []
        for i in 0..<200 { beats.append(i % 10 == 9 ? 2020 : (i % 2 == 0 ? 1000 : 1020)) }
        try beats.map(String.init).joined(separator: "\n").write(
            to: folder.appendingPathComponent("2026-03-02.txt"), atomically: true, encoding: .utf8)
        // --force: the day's check-in made a box record, which the imported morning replaces.
        let imported = try cli.run(["import", "rr", "--force", folder.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try cli.run(["export"])
        let document = try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any]
        let day = (document?["days"] as? [[String: Any]] ?? []).first { $0["date"] as? String == "2026-03-02" }
        let measurement = day?["measurement"] as? [String: Any]
        let hrv = measurement?["hrv"] as? [String: Any]
        #expect(measurement?["quality"] as? String == "ok", "still counted: \(String(describing: measurement))")
        let ratio = hrv?["artifactRatio"] as? Double ?? 0
        #expect(ratio > 0.05 && ratio <= 0.20)
        #expect(hrv?["grade"] as? String == "fair")
        let note = try #require(hrv?["gradeNote"] as? String)
        #expect(note.hasPrefix("fair (") && note.hasSuffix(" % of beats rejected)"))
        let status = try cli.run(["status"], at: "2026-03-02T09:00")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("quality ok") && status.stdout.contains("; " + note), "\(status.stdout)")
        // How the beats were judged: the rule, its version, and the reason for every rejected beat.
        let judged = hrv?["judgedBy"] as? [String: Any]
        let version = 7  // the pattern rule's detector version (ArtifactRule.version)
        let rejected = hrv?["rejected"] as? Int ?? -1
        #expect(judged?["rule"] as? String == "pattern" && judged?["version"] as? Int == version)
        // 2020 ms is above the range (2000 ms): every rejected beat here is out of range.
        #expect((judged?["rejected"] as? [String: Int])?["out_of_range"] == rejected, "\(String(describing: judged))")
        let why = "\(rejected) beats rejected: \(rejected) out of range (pattern rule, version \(version))"
        #expect(status.stdout.contains(why), "\(status.stdout)")
        #expect(!status.stdout.contains("judged by another rule"), "\(status.stdout)")
        // Another rule chosen: the morning judged by the pattern rule is said, not mixed in silently.
        let chosen = try cli.run(["settings", "--artifact-rule", "spec-20"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        let mixed = try cli.run(["status"], at: "2026-03-02T09:00")
        #expect(mixed.stdout.contains("1 of the 1 mornings with rMSSD in the last 60 days were judged by another rule"),
            "\(mixed.stdout)")
        _ = try cli.run(["settings", "--artifact-rule", "pattern"])
        let share = note.dropFirst("fair (".count).prefix { $0 != "%" } + "%"
        let history = try cli.run(["history", "--days", "3"], at: "2026-03-02T09:00")
        let line = history.stdout.split(separator: "\n").first { $0.hasPrefix("2026-03-02") } ?? ""
        #expect(line.contains("ok, fair " + share), "\(history.stdout)")
        let json = try cli.run(["history", "--days", "3", "--json"], at: "2026-03-02T09:00")
        let days = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["days"]
        let entry = (days as? [[String: Any]] ?? []).first { $0["date"] as? String == "2026-03-02" }
        #expect(entry?["grade"] as? String == "fair" && entry?["quality"] as? String == "ok")
        let judgedBy = entry?["judgedBy"] as? [String: Any]
        #expect(judgedBy?["rule"] as? String == "pattern" && judgedBy?["version"] as? Int == version)
    }

    @Test("history says which stored mornings the artifact rule's recomputation moved, and by how much")
    func historySaysWhatTheRecomputationMoved() throws {
        let cli = try prepared()
        defer { cli.remove() }
        let folder = cli.directory.appendingPathComponent("rr")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try (0..<120).map { String($0 % 2 == 0 ? 1000 : 1040) }.joined(separator: "\n").write(
            to: folder.appendingPathComponent("2026-03-02.txt"), atomically: true, encoding: .utf8)
        #expect(try cli.run(["import", "rr", "--force", folder.path]).status == 0)
        // What the migration records for a morning it recomputed (the table's own columns).
        let writer = try Child(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
                    + "c.execute(\"INSERT INTO rmssd_recomputation VALUES ('2026-03-02', 'pattern', 40.0, 44.0, 14, 2)\")\n"
                    + "c.commit()\n",
                cli.databasePath,
            ])
        #expect(try writer.wait() == .exit(0))
        let history = try cli.run(["history", "--days", "3"], at: "2026-03-02T09:00")
        #expect(history.status == 0, "\(history.stderr)")
        #expect(
            history.stdout.contains("2026-03-02  rMSSD 40.0 → 44.0 ms (+10.0 %), 14 → 2 beats rejected (pattern rule)"),
            "\(history.stdout)")
        let json = try cli.run(["history", "--days", "3", "--json"], at: "2026-03-02T09:00")
        let days = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["days"]
        let entries = days as? [[String: Any]] ?? []
        let moved = entries.first { $0["date"] as? String == "2026-03-02" }?["recomputed"] as? [String: Any]
        #expect(moved?["afterRmssdMs"] as? Double == 44.0 && moved?["beforeRejected"] as? Int == 14)
        #expect(entries.filter { $0["recomputed"] is [String: Any] }.count == 1, "only the day that moved")
    }

    @Test("settings --artifact-rule stores the rule by name and refuses another word with one sentence")
    func artifactRuleSetting() throws {
        let cli = try prepared()
        defer { cli.remove() }
        let set = try cli.run(["settings", "--artifact-rule", "spec-20"])
        #expect(set.status == 0, "\(set.stderr)")
        let shown = try cli.run(["settings"])
        #expect(shown.stdout.contains("artifact_rule") && shown.stdout.contains("spec-20"), "\(shown.stdout)")
        let refused = try cli.run(["settings", "--artifact-rule", "twenty"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--artifact-rule must be one of pattern, spec-20"), "\(refused.stderr)")
    }
}

import Foundation
import TestSupport
import Testing

/// `recoverydeck restore` run as a person would after a new SD card: the box's own export brings the
/// database back, exactly; refusals change nothing.
struct RestoreCommandTests {
    func snapshot(_ cli: RecoveryDeckProcess) -> [Data?] {
        [cli.databasePath, cli.databasePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    func path(_ name: String, _ cli: RecoveryDeckProcess) -> String {
        cli.directory.appendingPathComponent(name).path
    }

    /// A box with a check-in (habit, caffeine, meal, note), an imported morning from RR, and settings.
    func filled() throws -> RecoveryDeckProcess {
        let cli = try RecoveryDeckProcess()
        let steps: [(words: [String], at: String?)] = [
            (["settings", "--habits", "alcohol,sauna", "--display-name", "Zach", "--reminder", "06:45"], nil),
            (
                [
                    "checkin", "--fatigue", "4", "--mood", "5", "--soreness", "3", "--stress", "6", "--sleep", "2",
                    "--habit", "sauna", "--caffeine-time", "14:30", "--caffeine-mg", "120", "--last-meal", "19:45",
                    "--note", "slept badly, \"noisy\"",
                ],
                "2026-03-02T07:00"
            ),
        ]
        for (words, now) in steps {
            let outcome = try cli.run(words, at: now)
            #expect(outcome.status == 0, "\(words[0]): \(outcome.stderr)")
        }
        let folder = cli.directory.appendingPathComponent("rr")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // 120 intervals alternating 980/1020 ms: a steady morning with rMSSD 40 ms.
        try (0..<120).map { $0 % 2 == 0 ? "980" : "1020" }.joined(separator: "\n").write(
            to: folder.appendingPathComponent("2026-03-01.txt"), atomically: true, encoding: .utf8)
        let imported = try cli.run(["import", "rr", folder.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        return cli
    }

    @Test("export --full → delete --all → restore → export --full: byte-identical, box days still the box's")
    func roundTrip() throws {
        let cli = try filled()
        defer { cli.remove() }
        let now = "2026-03-02T09:00"
        let first = path("first.json", cli)
        #expect(try cli.run(["export", "--full", "-o", first], at: now).status == 0)
        #expect(try cli.run(["delete", "--all", "--yes"]).status == 0)
        let restored = try cli.run(["restore", first])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stderr.contains("Restored 2 days, 120 RR intervals"), "\(restored.stderr)")
        let second = path("second.json", cli)
        #expect(try cli.run(["export", "--full", "-o", second], at: now).status == 0)
        let a = try String(contentsOfFile: first, encoding: .utf8)
        let b = try String(contentsOfFile: second, encoding: .utf8)
        #expect(a == b)
        #expect(a.contains("\"display_name\": \"Zach\"") && a.contains("\"sauna\"") && a.contains("noisy"))
        let history = try cli.run(["history", "--days", "2", "--json"], at: now)
        let days = try #require(JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        let list = try #require(days["days"] as? [[String: Any]])
        #expect(list.map { $0["imported"] as? Bool } == [true, false], "\(history.stdout)")
    }

    @Test("over data without --replace, a newer export, or a malformed one: a sentence, exit 1, nothing changed")
    func refusals() throws {
        let cli = try filled()
        defer { cli.remove() }
        let file = path("backup.json", cli)
        #expect(try cli.run(["export", "--full", "-o", file]).status == 0)
        let before = snapshot(cli)
        let over = try cli.run(["restore", file])
        #expect(over.status == 1)
        #expect(over.stderr.contains("already holds data; give --replace"), "\(over.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let newer = path("newer.json", cli)
        try text.replacingOccurrences(of: "\"protocolVersion\": 2", with: "\"protocolVersion\": 3").write(
            toFile: newer, atomically: true, encoding: .utf8)
        let refused = try cli.run(["restore", newer, "--replace"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("was written by a newer RecoveryDeck (protocolVersion 3"), "\(refused.stderr)")
        let broken = path("broken.json", cli)
        try text.replacingOccurrences(of: "\"fatigue\": 4", with: "\"fatigue\": 9").write(
            toFile: broken, atomically: true, encoding: .utf8)
        let bad = try cli.run(["restore", broken, "--replace"])
        #expect(bad.status == 1 && bad.stderr.contains("fatigue must be a whole number from 1 to 7"), "\(bad.stderr)")
        #expect(snapshot(cli) == before)
        // --replace over the same data succeeds and leaves it as it was.
        #expect(try cli.run(["restore", file, "--replace"]).status == 0)
    }

    @Test("a check-in for a day not yet come, or on a clock never set, is refused and saves nothing")
    func checkinDates() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let scores = ["--fatigue", "4", "--mood", "4", "--soreness", "4", "--stress", "4", "--sleep", "4"]
        let future = try cli.run(["checkin"] + scores, at: "2999-01-01T07:00")
        #expect(future.status == 1)
        #expect(future.stderr.contains("2999-01-01 is after today"), "\(future.stderr)")
        let unset = try cli.run(["checkin"] + scores, at: "1970-01-01T00:05")
        #expect(unset.status == 1)
        #expect(unset.stderr.contains("1970-01-01 is before 2000-01-01"), "\(unset.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
    }

    @Test("import rr refuses a recording dated after today or before 2000, naming the file")
    func rrDates() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        for name in ["2999-03-01.txt", "0001-01-01.txt"] {
            let folder = cli.directory.appendingPathComponent("rr-" + name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try String(repeating: "1000\n", count: 100).write(
                to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let outcome = try cli.run(["import", "rr", folder.path])
            #expect(outcome.status == 1)
            #expect(
                outcome.stderr.contains(name) && outcome.stderr.contains("Nothing was imported."), "\(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
    }

    /// The export with the first match of `pattern` replaced by `replacement`.
    func crafted(_ text: String, _ pattern: String, _ replacement: String) throws -> String {
        let regex = try NSRegularExpression(pattern: pattern)
        let range = try #require(regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))?.range)
        return (text as NSString).replacingCharacters(in: range, with: replacement)
    }

    @Test("a crafted export (overflowing start, 1e308 rMSSD or HR, a NUL in a note, a 100 KB setting) is refused")
    func craftedValues() throws {
        let cli = try filled()
        defer { cli.remove() }
        let now = "2026-03-02T09:00"
        let file = path("backup.json", cli)
        #expect(try cli.run(["export", "--full", "-o", file], at: now).status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let cases: [(String, String, String)] = [
            (#""startedAt": \d+"#, #""startedAt": 9223372036854775807"#, "startedAt is 9223372036854775807"),
            (#""rmssdMs": [0-9.]+"#, #""rmssdMs": 1e308"#, "rmssdMs is 1e+308 ms, outside"),
            (#""meanHRBpm": [0-9.]+"#, #""meanHRBpm": 1e308"#, "meanHRBpm is 1e+308 bpm, outside"),
            (#""notes": "slept"#, #""notes": "slept\u0000"#, "notes holds the control character U+0"),
            (
                #""display_name": "Zach""#, "\"display_name\": \"" + String(repeating: "x", count: 100_000) + "\"",
                "display_name is 100000 characters long; the limit is 40"
            ),
        ]
        let exportBefore = path("before.json", cli)
        #expect(try cli.run(["export", "--full", "-o", exportBefore], at: now).status == 0)
        for (pattern, replacement, sentence) in cases {
            let bad = path("crafted.json", cli)
            try crafted(text, pattern, replacement).write(toFile: bad, atomically: true, encoding: .utf8)
            let outcome = try cli.run(["restore", bad, "--replace"])
            #expect(outcome.status == 1, "\(sentence): \(outcome.stderr)")
            #expect(outcome.stderr.contains(sentence), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("Nothing was restored"), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            if !sentence.hasPrefix("display_name") {
                #expect(outcome.stderr.contains("(the morning of 2026-03-0"), "\(outcome.stderr)")
            }
            let exportAfter = path("after.json", cli)
            #expect(try cli.run(["export", "--full", "-o", exportAfter], at: now).status == 0)
            #expect(
                try String(contentsOfFile: exportAfter, encoding: .utf8)
                    == String(contentsOfFile: exportBefore, encoding: .utf8))
        }
    }

    @Test("a database already holding 1e308 rMSSD and HR: status, report and history exit 0, the value missing")
    func storedOutOfRange() throws {
        let cli = try filled()
        defer { cli.remove() }
        let sqlite = try Child(
            "/usr/bin/sqlite3",
            [cli.databasePath, "UPDATE measurement SET rmssd_ms = 1e308, hrv_mean_hr_bpm = 1e308, mean_hr_bpm = 1e308"])
        #expect(try sqlite.wait() == .exit(0))
        for words in [["status"], ["report"], ["history", "--days", "3", "--json"]] {
            let outcome = try cli.run(words, at: "2026-03-02T09:00")
            #expect(outcome.status == 0, "\(words[0]): \(outcome.stderr)")
            #expect(!outcome.stdout.contains("e+308") && !outcome.stdout.contains("inf"), "\(outcome.stdout)")
        }
    }

    @Test("import rr refuses an interval no strap can send, naming the file and line, before any clock sums it")
    func importHugeInterval() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let folder = cli.directory.appendingPathComponent("rr")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ((0..<119).map { $0 % 2 == 0 ? "980" : "1020" } + ["1e300"]).joined(separator: "\n").write(
            to: folder.appendingPathComponent("2026-03-01.txt"), atomically: true, encoding: .utf8)
        let outcome = try cli.run(["import", "rr", folder.path])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("2026-03-01.txt line 120: RR interval 1e+300 ms is impossible"), "\(outcome.stderr)")
    }
}

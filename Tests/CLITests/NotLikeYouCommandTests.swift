import Foundation
import Testing

/// The "Not like you" flag where a person meets it: `status`, `status --json`, `history`, `export`, on an
/// imported history of steady mornings with an episode planted in its last days.
struct NotLikeYouCommandTests {
    /// 60 steady mornings from 1 March 2026 (lying HR 54–56 bpm, rMSSD 55–65 ms, in a fixed pattern), then from
    /// 30 April lying HR +7 bpm and rMSSD × 0.75 (ln −0.29) for `episodeDays` mornings, each with a check-in.
    func filled(episodeDays: Int) throws -> RecoveryDeckProcess {
        let cli = try RecoveryDeckProcess()
        var rows = ["date,rmssd,lying_hr,standing_hr,peak_hr,fatigue,mood,soreness,stress,sleep"]
        let start = Calendar(identifier: .gregorian).date(from: DateComponents(year: 2026, month: 3, day: 1))!
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd"
        format.timeZone = TimeZone(identifier: "UTC")
        for t in 0..<(60 + episodeDays) {
            let date = format.string(from: start.addingTimeInterval(Double(t) * 86_400 + 43_200))
            var hr = 54.0 + Double(t * 7 % 3)
            var rmssd = 55.0 + Double(t * 5 % 11)
            if t >= 60 {
                hr += 7
                rmssd *= 0.75
            }
            rows.append("\(date),\(rmssd),\(hr),\(hr + 18),\(hr + 30),5,5,5,5,5")
        }
        let path = cli.directory.appendingPathComponent("h.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: path, atomically: true, encoding: .utf8)
        let imported = try cli.run([
            "import", "csv", path.path, "--map",
            "date=date,rmssd=rmssd,lying_hr=lying_hr,standing_hr=standing_hr,peak_hr=peak_hr,fatigue=fatigue,"
                + "mood=mood,soreness=soreness,stress=stress,sleep=sleep",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        return cli
    }

    @Test("three mornings unlike the person: status says so with the sizes, history marks the days, export carries it")
    func flagged() throws {
        let cli = try filled(episodeDays: 3)
        defer { cli.remove() }
        let now = "2026-05-02T09:00"
        let status = try cli.run(["status"], at: now)
        #expect(status.status == 0, "\(status.stderr)")
        let line = try #require(status.stdout.split(separator: "\n").first { $0.hasPrefix("Not like you") })
        #expect(line.contains("T0: the last "))
        #expect(line.contains("the last 3 mornings: lying HR 7 bpm above your normal and ln rMSSD 0."))
        #expect(line.contains("not a diagnosis"))

        let json = try cli.run(["status", "--json"], at: now)
        let doc = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let flag = try #require(doc?["notLikeYou"] as? [String: Any])
        #expect(flag["status"] as? String == "flagged")
        let episode = try #require(flag["episode"] as? [String: Any])
        #expect(episode["tier"] as? String == "T0")
        // rMSSD × 0.75 is ln −0.288; the normal's mean and the episode's mornings differ by the pattern's phase.
        #expect(abs((episode["lnRMSSDBelow"] as? Double ?? 0) - 0.288) < 0.03)
        #expect(abs((episode["lyingHRAboveBpm"] as? Double ?? 0) - 7) < 0.7)

        let history = try cli.run(["history", "--days", "5"], at: now)
        // The three mornings of the stretch, the one before the flag was raised included.
        let marked = history.stdout.split(separator: "\n").filter { $0.hasSuffix("◆ not like you") }
        #expect(marked.map { String($0.prefix(10)) } == ["2026-04-30", "2026-05-01", "2026-05-02"])
        #expect(history.stdout.contains("◆ not like you (2026-05-02, T0): "))

        let report = try cli.run(["report", "--days", "10"], at: now)
        let row = try #require(report.stdout.split(separator: "\n").first { $0.hasPrefix("unlike you ") })
        #expect(row.hasSuffix("··◆◆◆  3 days"), "\(row)")
        // The chart marks the same three days, the last three of its ten columns.
        let chart = try cli.run(["report", "--days", "10", "--svg", "-"], at: now)
        let diamonds = chart.stdout.components(separatedBy: "class=\"not-like-you\" points=\"").dropFirst()
        let columns = diamonds.compactMap { Double($0.prefix { $0 != "," }) }
        #expect(columns.count == 3, "\(chart.stdout.suffix(800))")
        let spacing = columns.count == 3 ? columns[2] - columns[1] : 0
        #expect(spacing > 0 && abs((columns[1] - columns[0]) - spacing) < 0.01)

        let export = try cli.run(["export"], at: now)
        let exported = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any]
        let days = try #require((exported?["readout"] as? [String: Any])?["notLikeYou"] as? [[String: Any]])
        #expect(days.count == 63)
        #expect(days.filter { $0["newFlag"] as? Bool == true }.count == 1)
        #expect(days.prefix(60).allSatisfy { $0["status"] as? String != "flagged" })
    }

    @Test("watch ends a saved morning that is part of a stretch with status's line; a steady one without it")
    func watchLine() throws {
        for (episodeDays, now, expected) in [(3, "2026-05-02T09:00", true), (0, "2026-04-29T09:00", false)] {
            let cli = try filled(episodeDays: episodeDays)
            defer { cli.remove() }
            // A daemon as watch meets it after a saved morning: its reply to `watch` is the readout.
            let socket = cli.directory.appendingPathComponent("control.sock").path
            let server = try FakeSocketServer(
                listeningAt: socket,
                then: """
                request = json.loads(c.recv(65536))
                snapshot = {
                    "event": "snapshot", "session_ms": 1, "date": "\(now.prefix(10))", "clock": "\(now) :00",
                    "phase": "readout", "title": "Readout", "remaining_ms": None, "phase_progress": None,
                    "progress": None, "bpm": None, "rr_ok": False, "degraded": False, "accepted_beats": None,
                    "accepted_seconds": None, "fault": None, "fault_sentence": None, "state": "readout",
                    "lamps": {}, "display": "dark", "strap": "idle", "speed": 1, "waiting_for_database": 0,
                    "waiting_reason": None}
                c.send(json.dumps({"ok": True, "version": request["version"], "snapshot": snapshot}).encode())
                c.recv(65536)
                """)
            defer { server.stop() }
            #expect(server.firstLine() == "LISTENING\n", "the server did not start")
            let watch = try cli.run(["watch", "--socket", socket], at: now)
            #expect(watch.status == 0, "\(watch.stderr)")
            let line = watch.stdout.split(separator: "\n").first { $0.hasPrefix("Not like you") }
            #expect((line != nil) == expected, "\(watch.stdout)")
            if expected { #expect(line?.contains("the last 3 mornings: lying HR 7 bpm above your normal") == true) }
        }
    }

    @Test("steady mornings: no line in status, no mark in history")
    func steady() throws {
        let cli = try filled(episodeDays: 0)
        defer { cli.remove() }
        let now = "2026-04-29T09:00"
        let status = try cli.run(["status"], at: now)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(!status.stdout.contains("Not like you"))
        let history = try cli.run(["history", "--days", "60"], at: now)
        #expect(!history.stdout.contains("not like you"))
    }
}

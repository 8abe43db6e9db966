import Foundation
import Testing

/// Pictures over SSH, run as a person would: `report --svg` writes the chart, `report` and `status`
/// print one sparkline per series in which a day without a morning is a gap.
struct ReportCommandTests {
    /// 39 imported mornings, 2026-03-01 to 2026-04-09 without 2026-04-05: rMSSD 50 + (day % 7), so 54 on the last.
    func imported() throws -> RecoveryDeckProcess {
        let cli = try RecoveryDeckProcess()
        var rows = ["date,rmssd,lying_hr,standing_hr,peak_hr,fatigue,mood,soreness,stress,sleep"]
        for day in 0..<40 where day != 35 {
            let date = Calendar(identifier: .gregorian).date(
                byAdding: .day, value: day,
                to: DateComponents(
                    calendar: .init(identifier: .gregorian), year: 2026,
                    month: 3, day: 1, hour: 12
                ).date!)!
            let iso = ISO8601DateFormatter.string(from: date, timeZone: .gmt, formatOptions: [.withFullDate])
            rows.append("\(iso),\(50 + day % 7),52,70,80,5,5,5,5,5")
        }
        let file = cli.directory.appendingPathComponent("history.csv").path
        try (rows.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let map =
            "date=date,rmssd=rmssd,lying_hr=lying_hr,standing_hr=standing_hr,peak_hr=peak_hr,"
            + "fatigue=fatigue,mood=mood,soreness=soreness,stress=stress,sleep=sleep"
        let outcome = try cli.run(["import", "csv", file, "--map", map])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return cli
    }

    @Test("report --svg writes an SVG of five series, ln rMSSD and a light per day; report prints the sparklines")
    func chartAndSparklines() throws {
        let cli = try imported()
        defer { cli.remove() }
        let svg = cli.directory.appendingPathComponent("r.svg").path
        let written = try cli.run(["report", "--days", "14", "--svg", svg], at: "2026-04-09T08:00")
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("Wrote \(svg): 14 days through 2026-04-09."))
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(text.components(separatedBy: "class=\"series\"").count - 1 == 5)
        #expect(text.components(separatedBy: "class=\"light\"").count - 1 == 14)

        // The ln rMSSD panel: one more series, not a channel (no light of its own), a dot per morning.
        #expect(text.components(separatedBy: "class=\"ln-series\"").count - 1 == 1)
        #expect(text.components(separatedBy: "class=\"ln-day\"").count - 1 == 13)

        let lines = try cli.run(["report", "--days", "14"], at: "2026-04-09T08:00").stdout.split(separator: "\n")
        #expect(lines.count == 9)
        #expect(lines[8].hasPrefix("unlike you ") && lines[8].hasSuffix("  none"), "\(lines[8])")
        // 14 marks, the tenth (2026-04-05) a gap, then the latest value.
        for line in lines.prefix(5) {
            let marks = Array(line.dropFirst(11).prefix(14))
            #expect(marks.count == 14 && marks[9] == " ", "\(line)")
            #expect(marks.enumerated().allSatisfy { $0.offset == 9 || "▁▂▃▄▅▆▇█".contains($0.element) }, "\(line)")
        }
        #expect(lines[0].hasPrefix("rMSSD      ") && lines[0].hasSuffix("  54"), "\(lines[0])")
        // Then the 7-day mean of ln rMSSD (every week here has at least 3 valid mornings: no gap) and the last
        // day's figures: ln 54 = 3.989; 04-03…04-09 without 04-05 is 6 mornings.
        #expect(lines[5].hasPrefix("ln 7-day   ") && !lines[5].dropFirst(11).prefix(14).contains(" "), "\(lines[5])")
        #expect(lines[6].hasPrefix("ln rMSSD      today 3.989, 7-day mean "), "\(lines[6])")
        #expect(lines[7] == "              6 of the last 7 mornings valid", "\(lines[7])")
    }

    @Test("status shows the last four weeks as one sparkline per series, a gap for the missing morning")
    func statusSparklines() throws {
        let cli = try imported()
        defer { cli.remove() }
        let status = try cli.run(["status"], at: "2026-04-09T08:00")
        #expect(status.status == 0, "\(status.stderr)")
        let text = status.stdout.components(separatedBy: "The last four weeks")
        #expect(text.count == 2, "\(status.stdout)")
        let lines = text.last!.split(separator: "\n").dropFirst()
        #expect(
            lines.map { $0.prefix(10).trimmingCharacters(in: .whitespaces) } == [
                "rMSSD", "lying HR", "gap peak", "gap avg", "subjective",
            ])
        for line in lines {
            let marks = Array(line.dropFirst(11).prefix(28))
            #expect(marks[23] == " " && marks.filter { $0 == " " }.count == 1, "\(line)")
        }
    }

    @Test("bad report arguments exit 64, an unwritable file exits 1 with one sentence; nothing is written")
    func badInput() throws {
        let cli = try imported()
        defer { cli.remove() }
        #expect(try cli.run(["report", "--days", "3"]).status == 64)
        #expect(try cli.run(["report", "--days", "many"]).status == 64)
        #expect(try cli.run(["report", "--svg", ""]).status == 64)
        let missing = cli.directory.appendingPathComponent("no/such/dir/r.svg").path
        let outcome = try cli.run(["report", "--svg", missing])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "recoverydeck report: cannot write \(missing): No such file or directory.\n")
    }
}

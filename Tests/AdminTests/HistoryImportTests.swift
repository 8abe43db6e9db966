import Foundation
import RecoveryCore
import Testing

@testable import Admin

/// History import: a file is read whole and checked before anything is written; every malformed file
/// names its first bad line (RecoveryDeck: "bad input gets one clear sentence and changes nothing").
struct HistoryImportTests {
    let fullMap =
        "date=Date,rmssd=rMSSD,lying_hr=Lying,standing_hr=Standing,peak_hr=Peak,fatigue=F,mood=M,soreness=S,stress=L,sleep=Q"

    /// "Today" for every read: after all the dates below (the reader refuses later days).
    static let today = LocalDate(year: 2026, month: 6, day: 30)!

    func read(_ text: String, map: String = "date=Date,rmssd=rMSSD") throws -> [ImportedMorning] {
        try CSVHistory.read(
            text, format: CSVFormat(name: "csv", map: ColumnMap(map)), file: "h.csv", today: Self.today
        ).mornings
    }

    func failure(_ text: String, map: String = "date=Date,rmssd=rMSSD") -> String? {
        do {
            _ = try read(text, map: map)
            return nil
        } catch {
            return (error as? ImportError)?.message
        }
    }
    @Test("a header of 600 commas or a 100 KB field is refused at its line, before the reader holds them all; 512 fields are read")
    func oversizedRecordsAreRefused() throws {
        #expect(failure(String(repeating: ",", count: 600) + "\n") == "h.csv line 1: more than 512 fields: not a history file.")
        // 511 separators make 512 fields, the most a record may have; 512 make 513, one too many.
        let widest = try CSVTable("Date" + String(repeating: ",", count: 511) + "\n", file: "h.csv")
        #expect(widest.records.first?.fields.count == 512)
        #expect(failure("Date" + String(repeating: ",", count: 512) + "\n") == "h.csv line 1: more than 512 fields: not a history file.")
        let wide = "Date,rMSSD\n2026-03-01," + String(repeating: "5", count: 100_000) + "\n"
        #expect(failure(wide) == "h.csv line 2: the record is longer than 64 KiB: not a history file.")
    }


    @Test("a complete row becomes rMSSD, an orthostatic result and the five scores; empty cells stay missing")
    func fullRow() throws {
        let text = """
            Date,rMSSD,Lying,Standing,Peak,F,M,S,L,Q
            2026-03-01,62.5,51,68,84,5,6,4,3,7
            2026-03-02,,,,,,,,,
            2026-03-03,48,,,,,,,,
            """
        // Row 2026-03-02 has nothing: it is refused rather than stored as an empty day.
        #expect(failure(text, map: fullMap) == "h.csv line 3: no value for 2026-03-02: leave the row out instead.")
        let rows = try read(text.replacingOccurrences(of: "2026-03-02,,,,,,,,,\n", with: ""), map: fullMap)
        #expect(rows.count == 2)
        let first = rows[0]
        #expect(first.date == LocalDate(year: 2026, month: 3, day: 1)!)
        #expect(first.rmssdMs == 62.5)
        #expect(first.orthostatic == OrthostaticResult(avgLyingHR: 51, avgStandingHR: 68, peakStandingHR: 84))
        let scores = try #require(first.scores)
        #expect(SubjectiveItem.allCases.map { scores[$0].value } == [5, 6, 4, 3, 7])
        #expect(rows[1].orthostatic == nil && rows[1].scores == nil && rows[1].rmssdMs == 48)
        let record = first.dayRecord { _, _ in 0 }
        #expect(record.imported && record.isComplete)
        #expect(Channel.gapPeak.value(in: record) == 33)
    }

    @Test("gap columns stand for standing and peak with the lying rate they are measured from (spec §5.3)")
    func gaps() throws {
        let rows = try read(
            "Date,rMSSD,RHR,GA,GP\n2026-03-01,60,50,14,30\n",
            map: "date=Date,rmssd=rMSSD,lying_hr=RHR,gap_avg=GA,gap_peak=GP")
        #expect(rows[0].orthostatic == OrthostaticResult(avgLyingHR: 50, avgStandingHR: 64, peakStandingHR: 80))
    }

    @Test("columns by number, quoted fields, CRLF, a byte-order mark and semicolons with decimal commas")
    func formats() throws {
        let quoted = try read(
            "\u{FEFF}\"Date\",\"Note, with comma\",rMSSD\r\n2026-03-01,\"said \"\"hi\"\"\nover two lines\",55.5\r\n",
            map: "date=1,rmssd=3")
        #expect(quoted.count == 1 && quoted[0].rmssdMs == 55.5)
        let semicolons = try read("Date;rMSSD\n2026-03-01;55,5\n2026-03-02 06:41;40\n")
        #expect(semicolons.map(\.rmssdMs) == [55.5, 40])
        #expect(semicolons[1].startMinute == MinuteOfDay(hour: 6, minute: 41))
    }

    @Test("each malformed file is refused at its first bad line, with the reason")
    func malformed() {
        let cases: [(String, String)] = [
            (
                "Date,rMSSD\n2026-03-01,55\n2026-02-30,60\n",
                "h.csv line 3: '2026-02-30' is not a real day written YYYY-MM-DD or YYYY-DD-MM as the file's dates are."
            ),
            ("Date,rMSSD\n2026-03-01,55\n2026-03-02,fast\n", "h.csv line 3: rmssd 'fast' is not a number."),
            ("Date,rMSSD\n2026-03-01,0\n", "h.csv line 2: rmssd 0 is outside 1.0–500.0 ms."),
            ("Date,rMSSD\n2026-03-01,nan\n", "h.csv line 2: rmssd 'nan' is not a number."),
            ("Date,rMSSD\n2026-03-01,55,1\n", "h.csv line 2: 3 fields where the header has 2."),
            (
                "Date,rMSSD\n2026-03-01,55\n2026-03-01,56\n",
                "h.csv line 3: 2026-03-01 is already on line 2; one row per morning."
            ),
            ("Date,rMSSD\n,55\n", "h.csv line 2: the date is empty."),
            ("Date,rMSSD\n2026-03-01,\"55\n", "h.csv line 2: a quoted field is never closed."),
            ("Date,rMSSD\n2026-03-01,5\"5\n", "h.csv line 2: a quote inside an unquoted field."),
            ("Day,rMSSD\n2026-03-01,55\n", "h.csv line 1: no column named \"Date\" (for date) in the header."),
            ("Date,rMSSD\n", "h.csv has a header but no mornings."),
            ("", "h.csv is empty."),
        ]
        for (text, message) in cases {
            #expect(failure(text) == message, "input: \(text.debugDescription)")
        }
        #expect(
            failure(
                "Date,F,M,S,L,Q\n2026-03-01,5,5,5,5,8\n", map: "date=Date,fatigue=F,mood=M,soreness=S,stress=L,sleep=Q")
                == "h.csv line 2: sleep 8 is outside 1.0–7.0.")
        #expect(
            failure(
                "Date,F,M,S,L,Q\n2026-03-01,5,5,,5,5\n", map: "date=Date,fatigue=F,mood=M,soreness=S,stress=L,sleep=Q")
                == "h.csv line 2: the questionnaire needs all five scores or none.")
        #expect(
            failure(
                "Date,F,M,S,L,Q\n2026-03-01,5,5,4.5,5,5\n",
                map: "date=Date,fatigue=F,mood=M,soreness=S,stress=L,sleep=Q")
                == "h.csv line 2: soreness 4.5 is not a whole score from 1 to 7.")
        #expect(
            failure("Date,L,S,P\n2026-03-01,50,70,65\n", map: "date=Date,lying_hr=L,standing_hr=S,peak_hr=P")
                == "h.csv line 2: the peak standing rate is below the average standing rate.")
    }

    @Test("--map refuses fields that cannot make a morning, before any file is read")
    func mapRules() {
        func error(_ text: String) -> String? {
            do {
                _ = try ColumnMap(text)
                return nil
            } catch { return error.message }
        }
        #expect(error("rmssd=2") == "--map needs date=COLUMN.")
        #expect(error("date=1") == "--map names only the date: nothing to import.")
        #expect(error("date=1,rmssd=2,rmssd=3") == "--map names rmssd twice.")
        #expect(error("date=0,rmssd=2") == "--map: column numbers start at 1, not 0.")
        // Lying HR alone is another app's resting HR: importable. Standing values need it, and come in pairs.
        #expect(error("date=1,lying_hr=2") == nil)
        #expect(
            error("date=1,standing_hr=2,peak_hr=3")
                == "--map: standing_hr, peak_hr and the gaps need lying_hr, the rate they rise from.")
        #expect(error("date=1,lying_hr=2,standing_hr=3") != nil)
        #expect(error("date=1,lying_hr=2,standing_hr=3,gap_avg=4,peak_hr=5") != nil)
        #expect(
            error("date=1,mood=2")
                == "--map: the questionnaire needs all five of fatigue, mood, soreness, stress and sleep.")
        #expect(error("date=1;rmssd=2") != nil)
        #expect(error("date=1,rmssd=2") == nil)
    }

    /// RR recordings: 120 intervals around 1000 ms from a seeded generator (SeededRandom, seed 7).
    func recording(seed: UInt64 = 7, count: Int = 120, jitter: Double = 30) -> String {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in String(Int(1000 + random.uniform(-jitter, jitter))) }.joined(separator: "\n")
            + "\n"
    }

    @Test("RR files: named by date, the earliest of a day is the morning, rMSSD by the box's window and rules")
    func rrFiles() throws {
        let files = [
            RRHistory.File(name: "2026-03-01 19-00-00.txt", text: recording(seed: 1)),
            RRHistory.File(name: "2026-03-01 06-40-12.txt", text: recording(seed: 2)),
            RRHistory.File(name: "2026-03-02.txt", text: recording(seed: 3)),
        ]
        let result = try RRHistory.read(files, directory: "rr")
        #expect(result.mornings.map(\.origin) == ["2026-03-01 06-40-12.txt", "2026-03-02.txt"])
        #expect(result.skipped.map(\.name) == ["2026-03-01 19-00-00.txt"])
        #expect(result.mornings[0].startMinute == MinuteOfDay(hour: 6, minute: 40))
        let expected = HRVAnalysis.analyze(
            try RRHistory.parse(files[1], directory: "rr").intervalsMs, window: .morning)
        #expect(result.mornings[0].hrv == expected.metrics && expected.quality == .ok)
        #expect(result.mornings[0].rawRR.count == 120)
        // Stored raw values convert back to within half a 1/1024 s unit of the file's ms.
        let first = Double(recording(seed: 2).split(separator: "\n")[0])!
        #expect(abs(result.mornings[0].rawRR[0].milliseconds - first) <= 0.5 * 1000 / 1024)
    }

    @Test("a recording that fails the spec's quality rules is imported as failed, and does not count (spec §5.1)")
    func rrQuality() throws {
        let result = try RRHistory.read(
            [RRHistory.File(name: "2026-03-01.txt", text: recording(count: 30))], directory: "rr")
        #expect(result.mornings[0].quality == .fail(.tooFewBeats))
        #expect(Channel.rmssd.value(in: result.mornings[0].dayRecord { _, _ in 0 }) == nil)
    }

    @Test("a malformed RR file or folder is refused, naming the file and line")
    func rrMalformed() {
        func error(_ files: [RRHistory.File]) -> String? {
            do {
                _ = try RRHistory.read(files, directory: "rr")
                return nil
            } catch { return error.message }
        }
        #expect(
            error([.init(name: "2026-03-01.txt", text: "1000\n990\nx\n")])
                == "rr/2026-03-01.txt line 3: 'x' is not an RR interval in milliseconds.")
        #expect(
            error([.init(name: "2026-03-01.txt", text: "1000\n-5\n")])
                == "rr/2026-03-01.txt line 2: '-5' is not an RR interval in milliseconds.")
        #expect(
            error([.init(name: "2026-03-01.txt", text: "1000\n70000\n")])
                == "rr/2026-03-01.txt line 2: RR interval 70000.0 ms is impossible (a strap reports under 64 s).")
        #expect(
            error([.init(name: "notes.txt", text: "1000\n")])
                == "rr/notes.txt is not named by date (YYYY-MM-DD…); move it out of the folder.")
        #expect(
            error([.init(name: "2026-03-01.txt", text: "1000\n")])
                == "rr/2026-03-01.txt holds 1 RR intervals; a morning needs many.")
        #expect(error([]) == "rr has no RR files.")
    }

    @Test("the plan keeps the box's own days unless forced, and replaces earlier imports")
    func plan() {
        let d = (1...4).map { LocalDate(year: 2026, month: 3, day: $0)! }
        var mornings = d.map { ImportedMorning(date: $0, origin: "x") }
        for i in mornings.indices { mornings[i].rmssdMs = 50 }
        let boxQuestionnaire = Questionnaire(date: d[1], scores: SubjectiveScores([4, 4, 4, 4, 4])!)
        let existing: [LocalDate: DayRecord] = [
            d[1]: DayRecord(date: d[1], questionnaire: boxQuestionnaire),
            d[2]: DayRecord(
                date: d[2], questionnaire: Questionnaire(date: d[2], scores: SubjectiveScores([4, 4, 4, 4, 4])!),
                imported: true),
            d[3]: DayRecord(date: d[3]),
        ]
        let plan = ImportPlan(mornings, existing: existing, force: false)
        #expect(plan.steps.map(\.action) == [.add, .keepBox, .replaceImported, .add])
        #expect(plan.writes.map(\.date) == [d[0], d[2], d[3]])
        let forced = ImportPlan(mornings, existing: existing, force: true)
        #expect(forced.steps[1].action == .replaceBox && forced.writes.count == 4)
    }
}

import RecoveryCore
import Testing

@testable import Admin

/// The files people bring: Elite HRV's and HRV4Training's exports, and spreadsheets, each with the quirks
/// the real exports have. The samples are written here from the formats' descriptions; the values are
/// invented.
struct HistoryPresetTests {
    static let today = LocalDate(year: 2026, month: 6, day: 30)!

    func read(_ text: String, _ format: CSVFormat, file: String = "x.csv") throws -> CSVHistory.Result {
        try CSVHistory.read(text, format: format, file: file, today: Self.today)
    }

    func failure(_ text: String, _ format: CSVFormat) -> String? {
        do {
            _ = try read(text, format)
            return nil
        } catch { return (error as? ImportError)?.message }
    }

    // MARK: HRV4Training

    /// HRV4Training's Android export, as the app writes it: 64 column names each after a space (the first
    /// too), a blank second line, dates YYYY-DD-MM, 0.0 in every measurement column on a day without a
    /// measurement, and some rows ending in a comma. Columns 20–64 carry other metrics (named extra20…).
    static func hrv4TrainingFile(rows: [(date: String, hr: String, rmssd: String, trailingComma: Bool)]) -> String {
        var names = [
            "date", "time", "HR", "AVNN", "SDNN", "rMSSD", "pNN50", "LF", "HF", "LFHF", "HRV4T_Recovery_Points",
            "trainingTime", "trainingRPE", "sleep_quality", "sleep_time", "mental_energy", "muscle_soreness",
            "fatigue", "motivation",
        ]
        names += (names.count + 1...64).map { "extra\($0)" }
        var lines = [names.map { " " + $0 }.joined(separator: ","), ""]
        for row in rows {
            var cells = [row.date, "07:02", row.hr, "1010.0", "52.0", row.rmssd, "21.0"]
            cells += Array(repeating: "0.0", count: 64 - cells.count)
            cells[13] = "7"  // sleep_quality, on HRV4Training's own scale
            lines.append(cells.joined(separator: ",") + (row.trailingComma ? "," : ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        "HRV4Training: spaced 64-column header, blank second line, YYYY-DD-MM, 0.0 as no measurement, trailing commas")
    func hrv4Training() throws {
        let text = Self.hrv4TrainingFile(rows: [
            ("2026-01-03", "52.0", "61.5", true),
            ("2026-02-03", "0.0", "0.0", false),  // no measurement that day
            ("2026-13-03", "54.0", "58.1", true),  // day 13: the middle field is the day
            ("2026-14-03", "55.5", "57.0", false),
        ])
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false)[0].split(separator: ",").count == 64)
        let result = try read(text, .hrv4Training, file: "h4t.csv")
        let march = { LocalDate(year: 2026, month: 3, day: $0)! }
        #expect(result.mornings.map(\.date) == [march(1), march(13), march(14)])
        #expect(result.mornings.map(\.rmssdMs) == [61.5, 58.1, 57.0])
        // 0.0 is not a measured zero: 2 March is absent, not stored as rMSSD 0.
        #expect(!result.mornings.contains { $0.date == march(2) })
        // HR alone is the lying heart rate, and joins the lying HR channel.
        #expect(result.mornings[2].lyingHRBpm == 55.5 && result.mornings[2].orthostatic == nil)
        let record = result.mornings[2].dayRecord { _, _ in 0 }
        #expect(Channel.lyingHR.value(in: record) == 55.5)
        #expect(Channel.gapPeak.value(in: record) == nil)
        #expect(result.mornings.allSatisfy { $0.scores == nil })
        let lines = result.report.lines()
        #expect(lines[0] == "HRV4Training file, dates read as YYYY-DD-MM (line 5 decides it).")
        #expect(lines.contains("Came across: rmssd from \"rMSSD\" (3 mornings)."))
        #expect(lines.contains { $0.hasPrefix("Left out: \"sleep_quality\"") && $0.contains("no mood or stress") })
        #expect(lines.contains { $0.hasPrefix("Left out: 1 row without a measurement") })
    }

    @Test("the same HRV4Training file was refused by the generic reader's old field count; now it reads")
    func hrv4TrainingThroughGenericCSV() throws {
        let text = Self.hrv4TrainingFile(rows: [("2026-13-03", "54.0", "58.1", true)])
        let result = try read(
            text, CSVFormat(name: "csv", map: try ColumnMap("date=date,rmssd=rMSSD,lying_hr=HR")))
        #expect(result.mornings.map(\.date) == [LocalDate(year: 2026, month: 3, day: 13)!])
        #expect(result.mornings[0].lyingHRBpm == 54)
    }

    // MARK: Elite HRV

    static let eliteOldHeader =
        "Date Time Start,Date Time End,Type,HR,HRV,Morning Readiness,Rmssd,ln(rMSSD),SDNN,NN50,PNN50,Total Power,LF,HF,LF/HF,Duration"
    static let eliteNewHeader = eliteOldHeader + ",Tags,Notes,Value 1,Value 2,Value 3"

    /// Elite HRV's readings export, newest first as the app lists them: readiness readings and others.
    static func eliteFile(newer: Bool) -> String {
        let tail =
            newer
            ? [",\"coffee,late\",\"slept well, \"\"finally\"\"\",,,", ",,,,,", ",,,,,", ",,,,,"] : ["", "", "", ""]
        return [
            newer ? eliteNewHeader : eliteOldHeader,
            "2026-03-02 19:00:00,2026-03-02 19:05:00,meditation,60,60.0,,40.2,3.7,50,10,9,1500,700,600,1.1,300"
                + tail[1],
            "2026-03-02 06:41:10,2026-03-02 06:43:10,readiness,53,71.2,7,60.5,4.1,70,20,18,2000,800,900,0.9,120"
                + tail[0],
            "2026-03-01 06:50:00,2026-03-01 06:52:00,readiness,55,68.0,6,55.0,4.0,62,18,16,1900,780,850,0.9,120"
                + tail[2],
            "2026-03-01 06:30:00,2026-03-01 06:32:00,Readiness,54,69.0,6,57.0,4.0,62,18,16,1900,780,850,0.9,120"
                + tail[3],
        ].joined(separator: "\r\n") + "\r\n"
    }

    @Test("Elite HRV, both variants: readiness readings are mornings, Rmssd not the scaled HRV, earliest of a day")
    func eliteHRV() throws {
        for newer in [false, true] {
            let result = try read(Self.eliteFile(newer: newer), .eliteHRV, file: "elite.csv")
            #expect(result.mornings.map(\.date.iso) == ["2026-03-01", "2026-03-02"], "newer: \(newer)")
            // 06:30 is earlier than 06:50: it is the morning of 1 March, although the file lists it last.
            #expect(result.mornings.map(\.rmssdMs) == [57.0, 60.5])
            #expect(result.mornings.map(\.lyingHRBpm) == [54, 53])
            #expect(result.mornings[0].startMinute == MinuteOfDay(hour: 6, minute: 30))
            let lines = result.report.lines()
            #expect(lines.contains { $0.hasPrefix("Left out: \"HRV\": a scaled ln(rMSSD) score") })
            #expect(lines.contains { $0.hasPrefix("Left out: 1 row whose Type is not readiness (meditation 1)") })
            #expect(lines.contains { $0.hasPrefix("Left out: 1 later reading of a day") })
            #expect(lines.contains { $0.hasPrefix("Left out: \"Notes\"") } == newer)
        }
    }

    // MARK: Generic CSV

    @Test("a spreadsheet's quirks: spaced header names, quoted fields, trailing empty fields")
    func tolerantGeneric() throws {
        let text = """
            " Date ", rMSSD ,Resting HR,
            "2026-03-01","61,5",52,,
            2026-03-02,60.1,"51",

            2026-03-03,59.0,50
            """
        let result = try read(
            text, CSVFormat(name: "csv", map: try ColumnMap("date=Date,rmssd=rMSSD,lying_hr=Resting HR")))
        #expect(result.mornings.map(\.rmssdMs) == [61.5, 60.1, 59.0])
        #expect(result.mornings.map(\.lyingHRBpm) == [52, 51, 50])
        // A non-empty field past the header is still refused.
        #expect(
            failure(
                "Date,rMSSD\n2026-03-01,55,,7\n", CSVFormat(name: "csv", map: try ColumnMap("date=Date,rmssd=rMSSD")))
                == "x.csv line 2: 4 fields where the header has 2.")
    }

    @Test("the dates' order: detected when a date decides it, refused when none can, given by --date-format")
    func dateOrder() throws {
        let map = try ColumnMap("date=Date,rmssd=rMSSD")
        let dayFirst = try read("Date,rMSSD\n03/02/2026,50\n13/02/2026,51\n", CSVFormat(name: "csv", map: map))
        #expect(dayFirst.mornings.map(\.date.iso) == ["2026-02-03", "2026-02-13"])
        #expect(dayFirst.report.dates == "dates read as DD-MM-YYYY (line 3 decides it)")
        let monthFirst = try read("Date,rMSSD\n03/02/2026 6:40,50\n03/14/2026,51\n", CSVFormat(name: "csv", map: map))
        #expect(monthFirst.mornings.map(\.date.iso) == ["2026-03-02", "2026-03-14"])
        #expect(monthFirst.mornings[0].startMinute == MinuteOfDay(hour: 6, minute: 40))
        #expect(
            failure("Date,rMSSD\n03/02/2026,50\n04/02/2026,51\n", CSVFormat(name: "csv", map: map))
                == "x.csv: every date fits both DD-MM-YYYY and MM-DD-YYYY; give --date-format DD/MM/YYYY or MM/DD/YYYY."
        )
        let given = try read(
            "Date,rMSSD\n03.02.2026,50\n04.02.2026,51\n", CSVFormat(name: "csv", map: map, dateOrder: .dmy))
        #expect(given.mornings.map(\.date.iso) == ["2026-02-03", "2026-02-04"])
        #expect(
            failure("Date,rMSSD\n2026-01-13,50\n2026-13-01,51\n", CSVFormat(name: "csv", map: map))
                == "x.csv line 3: '2026-13-01' is not a real day written YYYY-MM-DD or YYYY-DD-MM as the file's dates are."
        )
        #expect(throws: ImportError.self) { _ = try DateOrder(option: "YYYY/13/DD") }
        #expect(try DateOrder(option: "dd/mm/yyyy") == .dmy)
    }

    @Test("no day after today, none before 2000-01-01: refused at the line, nothing read")
    func dateBounds() throws {
        let format = CSVFormat(name: "csv", map: try ColumnMap("date=Date,rmssd=rMSSD"))
        #expect(
            failure("Date,rMSSD\n2026-03-01,50\n2026-07-01,51\n", format)
                == "x.csv line 3: 2026-07-01 is after today (2026-06-30); a morning cannot be recorded before it happens."
        )
        #expect(
            failure("Date,rMSSD\n0001-01-01,50\n", format)
                == "x.csv line 2: 0001-01-01 is before 2000-01-01; the date or the clock is wrong.")
        #expect(try read("Date,rMSSD\n2026-06-30,50\n2000-01-01,51\n", format).mornings.count == 2)
    }
}

// libFuzzer target: the CSV history readers (CSVTable, and CSVHistory through the Elite HRV preset and a
// --map format). Any text gives mornings or one ImportError sentence, never a trap; every morning read is
// inside the box's dates and ranges.

private let today = LocalDate(year: 2026, month: 3, day: 10)!
private let mapped = try! CSVFormat(name: "csv", map: ColumnMap("date=date,rmssd=rmssd,lying_hr=hr"))

func fuzzCSV(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let table = try? CSVTable(text, file: "f.csv") {
        for record in table.records where record.fields.count > CSVTable.maximumFields {
            fatalError("a record of \(record.fields.count) fields was kept")
        }
    }
    for format in [mapped, CSVFormat.eliteHRV, CSVFormat.hrv4Training] {
        do {
            let result = try CSVHistory.read(text, format: format, file: "f.csv", today: today)
            for m in result.mornings {
                if m.date > today || m.date < LocalDate.earliestMorning { fatalError("a morning on \(m.date.iso)") }
                if let r = m.rmssdMs, !Plausible.variabilityMs.contains(r) { fatalError("rMSSD \(r) kept") }
            }
        } catch {
            if error.message.isEmpty { fatalError("an empty sentence") }
        }
    }
}

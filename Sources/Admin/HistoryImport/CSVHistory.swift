import RecoveryCore

/// Mornings from a spreadsheet or an app's CSV export, read through a `ColumnMap`. The whole file is
/// checked before anything is returned: the first malformed line throws, naming its number.
public enum CSVHistory {
    public static func read(_ text: String, map: ColumnMap, file: String) throws(ImportError) -> [ImportedMorning] {
        let table = try CSVTable(text, file: file)
        guard let header = table.records.first else { throw ImportError("\(file) is empty.") }
        let index = try map.indexes(header: header.fields, file: file)
        var mornings: [ImportedMorning] = []
        var lineOfDate: [LocalDate: Int] = [:]
        for record in table.records.dropFirst() {
            let n = record.line
            guard record.fields.count == header.fields.count else {
                throw ImportError.line(
                    file, n, "\(record.fields.count) fields where the header has \(header.fields.count).")
            }
            let cell = { (f: ImportField) -> String? in
                guard let i = index[f] else { return nil }
                let text = record.fields[i].trimmed
                return text.isEmpty ? nil : text
            }
            guard let dateText = cell(.date) else { throw ImportError.line(file, n, "the date is empty.") }
            guard let (date, minute) = parseDate(dateText) else {
                throw ImportError.line(file, n, "\"\(dateText)\" is not a date (YYYY-MM-DD, optionally with a time).")
            }
            if let earlier = lineOfDate[date] {
                throw ImportError.line(file, n, "\(date.iso) is already on line \(earlier); one row per morning.")
            }
            lineOfDate[date] = n
            var values: [ImportField: Double] = [:]
            for field in ImportField.allCases where field != .date {
                guard let text = cell(field) else { continue }
                guard let value = number(text), value.isFinite else {
                    throw ImportError.line(file, n, "\(field.rawValue) \"\(text)\" is not a number.")
                }
                guard field.range.contains(value) else {
                    throw ImportError.line(
                        file, n,
                        "\(field.rawValue) \(text) is outside \(oneDecimal(field.range.lowerBound))–\(oneDecimal(field.range.upperBound))\(field.unit)."
                    )
                }
                if ImportField.scores.contains(field), value != value.rounded() {
                    throw ImportError.line(file, n, "\(field.rawValue) \(text) is not a whole score from 1 to 7.")
                }
                values[field] = value
            }
            var morning = ImportedMorning(date: date, origin: "\(file) line \(n)")
            morning.startMinute = minute
            morning.rmssdMs = values[.rmssd]
            if let lying = values[.lyingHR] {
                let standing = values[.standingHR] ?? values[.gapAvg].map { lying + $0 }
                let peak = values[.peakHR] ?? values[.gapPeak].map { lying + $0 }
                guard let standing, let peak else {
                    throw ImportError.line(file, n, "lying_hr without the standing and peak values of the same test.")
                }
                guard peak >= standing else {
                    throw ImportError.line(file, n, "the peak standing rate is below the average standing rate.")
                }
                morning.orthostatic = OrthostaticResult(
                    avgLyingHR: lying, avgStandingHR: standing, peakStandingHR: peak)
            } else if [.standingHR, .peakHR, .gapAvg, .gapPeak].contains(where: { values[$0] != nil }) {
                throw ImportError.line(file, n, "standing or peak values without lying_hr.")
            }
            let scores = ImportField.scores.compactMap { values[$0].map { Int($0) } }
            if !scores.isEmpty {
                guard scores.count == 5, let s = SubjectiveScores(scores) else {
                    throw ImportError.line(file, n, "the questionnaire needs all five scores or none.")
                }
                morning.scores = s
            }
            guard morning.rmssdMs != nil || morning.orthostatic != nil || morning.scores != nil else {
                throw ImportError.line(file, n, "no value for \(date.iso): leave the row out instead.")
            }
            mornings.append(morning)
        }
        guard !mornings.isEmpty else { throw ImportError("\(file) has a header but no mornings.") }
        return mornings
    }

    /// "2026-03-01", "2026-03-01 06:42", "2026-03-01T06:42:10", "2026/03/01".
    static func parseDate(_ text: String) -> (LocalDate, MinuteOfDay?)? {
        let chars = Array(text)
        guard chars.count >= 10 else { return nil }
        let datePart = String(chars[0..<10]).replacingSlashes()
        guard let date = LocalDate(iso: datePart) else { return nil }
        if chars.count == 10 { return (date, nil) }
        guard chars[10] == " " || chars[10] == "T", chars.count >= 16 else { return nil }
        guard let minute = MinuteOfDay(hhmm: String(chars[11..<16])) else { return nil }
        let rest = chars[16...]
        guard
            rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy { $0.isNumber || $0 == "." })
                || rest.allSatisfy({ $0 == "Z" })
        else { return nil }
        return (date, minute)
    }

    /// A decimal number; a decimal comma is read as a point when the text has no point.
    static func number(_ text: String) -> Double? {
        var t = text
        if !t.contains("."), t.filter({ $0 == "," }).count == 1 { t = t.replacingComma() }
        guard t.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }) else { return nil }
        return Double(t)
    }
}

extension String {
    fileprivate func replacingSlashes() -> String { String(map { $0 == "/" ? "-" : $0 }) }
    fileprivate func replacingComma() -> String { String(map { $0 == "," ? "." : $0 }) }
}

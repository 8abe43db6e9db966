import RecoveryCore

/// Mornings from a spreadsheet or an app's CSV export, read through a `CSVFormat`. The whole file is
/// checked before anything is returned: the first malformed line throws, naming its number.
public enum CSVHistory {
    public struct Result: Sendable {
        public var mornings: [ImportedMorning]
        /// Which fields came across and which were left out, and why.
        public var report: FieldReport
    }

    /// Reads `text` as `format` says. `today` bounds the dates (`LocalDate.morningDateProblem`).
    public static func read(_ text: String, format: CSVFormat, file: String, today: LocalDate)
        throws(ImportError) -> Result
    {
        let table = try CSVTable(text, file: file)
        guard let header = table.records.first else { throw ImportError("\(file) is empty.") }
        let names = header.fields.map(\.trimmed)
        // A header ending in a comma names an empty last column; data rows may end in commas too.
        let width = names.lastIndex { !$0.isEmpty }.map { $0 + 1 } ?? 0
        let map = format.map
        let index = try map.indexes(header: header.fields, file: file)
        let filterIndex: Int?
        if let filter = format.rowFilter {
            guard let i = names.firstIndex(where: { $0.lowercased() == filter.column.lowercased() }) else {
                throw ImportError.line(file, 1, "no column named \"\(filter.column)\" in the header.")
            }
            filterIndex = i
        } else {
            filterIndex = nil
        }

        // Rows first: width, filter and the date cells, so the dates' order is decided by all of them.
        var rows: [(line: Int, fields: [String], date: DateCell)] = []
        var otherTypes: [String: Int] = [:]
        for record in table.records.dropFirst() {
            let n = record.line
            if record.fields.allSatisfy({ $0.trimmed.isEmpty }) { continue }
            var fields = record.fields
            // Empty fields past the header's last name are a row ending in commas, not data.
            while fields.count > width, fields.last!.trimmed.isEmpty { fields.removeLast() }
            guard fields.count == width else {
                throw ImportError.line(file, n, "\(record.fields.count) fields where the header has \(width).")
            }
            while fields.count < header.fields.count { fields.append("") }
            if let filterIndex, let filter = format.rowFilter {
                let type = fields[filterIndex].trimmed
                guard type.lowercased() == filter.value.lowercased() else {
                    otherTypes[type.isEmpty ? "(empty)" : type, default: 0] += 1
                    continue
                }
            }
            guard let i = index[.date], case let dateText = fields[i].trimmed, !dateText.isEmpty else {
                throw ImportError.line(file, n, "the date is empty.")
            }
            guard let cell = DateCell(dateText) else {
                throw ImportError.line(
                    file, n,
                    "\"\(dateText)\" is not a date (YYYY-MM-DD or --date-format's order, optionally with a time).")
            }
            rows.append((n, fields, cell))
        }
        let order: DateOrder
        let choice: DateOrderChoice
        if let given = format.dateOrder {
            (order, choice) = (given, .given)
        } else {
            (order, choice) = try DateOrder.detect(
                rows.map { ($0.line, $0.fields[index[.date]!].trimmed, $0.date) },
                yearFirstDefault: format.yearFirstDefault, file: file)
        }

        var mornings: [ImportedMorning] = []
        var lineOfDate: [LocalDate: Int] = [:]
        var emptyRows = 0
        var laterReadings = 0
        var counts: [ImportField: Int] = [:]
        for (n, fields, cell) in rows {
            guard let date = order.date(cell.parts) else {
                let text = fields[index[.date]!].trimmed
                throw ImportError.line(file, n, "\(echoed(text)) is not a real day written \(order.rawValue).")
            }
            if let problem = date.morningDateProblem(today: today) { throw ImportError.line(file, n, problem) }
            var values: [ImportField: Double] = [:]
            for field in ImportField.allCases where field != .date {
                guard let i = index[field], case let text = fields[i].trimmed, !text.isEmpty else { continue }
                guard let value = number(text), value.isFinite else {
                    throw ImportError.line(file, n, "\(field.rawValue) \(echoed(text)) is not a number.")
                }
                if value == 0, format.zeroMeansMissing.contains(field) { continue }
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
            morning.startMinute = cell.minute
            morning.rmssdMs = values[.rmssd]
            if let lying = values[.lyingHR] {
                let standing = values[.standingHR] ?? values[.gapAvg].map { lying + $0 }
                let peak = values[.peakHR] ?? values[.gapPeak].map { lying + $0 }
                if let standing, let peak {
                    guard peak >= standing else {
                        throw ImportError.line(file, n, "the peak standing rate is below the average standing rate.")
                    }
                    morning.orthostatic = OrthostaticResult(
                        avgLyingHR: lying, avgStandingHR: standing, peakStandingHR: peak)
                } else if standing != nil || peak != nil {
                    throw ImportError.line(file, n, "standing and peak values come together, or neither.")
                } else {
                    morning.lyingHRBpm = lying
                }
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
            guard
                morning.rmssdMs != nil || morning.orthostatic != nil || morning.lyingHRBpm != nil
                    || morning.scores != nil
            else {
                if format.skipEmptyRows {
                    emptyRows += 1
                    continue
                }
                throw ImportError.line(file, n, "no value for \(date.iso): leave the row out instead.")
            }
            if let earlier = lineOfDate[date] {
                guard format.earliestOfDay else {
                    throw ImportError.line(file, n, "\(date.iso) is already on line \(earlier); one row per morning.")
                }
                laterReadings += 1
                let i = mornings.firstIndex { $0.date == date }!
                // The day's first reading is the morning (spec §6.1); an untimed one counts as earliest.
                if (morning.startMinute?.minutes ?? -1) < (mornings[i].startMinute?.minutes ?? -1) {
                    mornings[i] = morning
                    lineOfDate[date] = n
                }
                continue
            }
            lineOfDate[date] = n
            mornings.append(morning)
        }
        guard !mornings.isEmpty else { throw ImportError("\(file) has a header but no mornings.") }
        mornings.sort { $0.date < $1.date }
        for m in mornings {
            if m.rmssdMs != nil { counts[.rmssd, default: 0] += 1 }
            if m.orthostatic != nil || m.lyingHRBpm != nil { counts[.lyingHR, default: 0] += 1 }
            if m.orthostatic != nil {
                for f in [ImportField.standingHR, .peakHR, .gapAvg, .gapPeak] where index[f] != nil {
                    counts[f, default: 0] += 1
                }
            }
            if m.scores != nil { for f in ImportField.scores { counts[f, default: 0] += 1 } }
        }

        var report = FieldReport(format: format.name, dates: choice.words(order))
        let dateColumn = map.columnName(.date, header: names) ?? "date"
        report.taken.append(.init(field: .date, column: dateColumn, mornings: mornings.count, note: nil))
        for field in ImportField.allCases where field != .date && index[field] != nil {
            report.taken.append(
                .init(
                    field: field, column: map.columnName(field, header: names) ?? field.rawValue,
                    mornings: counts[field] ?? 0, note: format.fieldNotes[field]))
        }
        let used = Set(index.values).union(filterIndex.map { [$0] } ?? [])
        var groups: [String: [String]] = [:]
        var reasonOrder: [String] = []
        for (i, name) in names.enumerated() where !used.contains(i) && !name.isEmpty {
            let reason =
                format.leftOutReasons[name.lowercased()]
                ?? (format.name == "csv" ? "--map names no field for it" : "no field of the box holds it")
            if groups[reason] == nil { reasonOrder.append(reason) }
            groups[reason, default: []].append(name)
        }
        report.leftOut = reasonOrder.map { ($0, groups[$0]!) }
        if let filter = format.rowFilter, !otherTypes.isEmpty {
            let kinds = otherTypes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let total = otherTypes.values.reduce(0, +)
            report.rowsLeftOut.append(
                "\(total) row\(total == 1 ? "" : "s") whose \(filter.column) is not \(filter.value) (\(kinds)): \(filter.why)"
            )
        }
        if emptyRows > 0 {
            let zeros = format.zeroMeansMissing.isEmpty ? "" : ", 0 counting as not measured"
            report.rowsLeftOut.append(
                "\(emptyRows) row\(emptyRows == 1 ? "" : "s") without a measurement (no value in the columns read\(zeros))"
            )
        }
        if laterReadings > 0 {
            report.rowsLeftOut.append(
                "\(laterReadings) later reading\(laterReadings == 1 ? "" : "s") of a day already read: the day's first reading is the morning"
            )
        }
        return Result(mornings: mornings, report: report)
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
    fileprivate func replacingComma() -> String { String(map { $0 == "," ? "." : $0 }) }
}

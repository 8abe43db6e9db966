/// Which CSV column holds which value: `date=Date,rmssd=rMSSD,lying_hr=4`. A column is named by its
/// header text (compared without regard to case or surrounding spaces) or by its 1-based number.
public struct ColumnMap: Equatable, Sendable {
    public enum Column: Equatable, Sendable {
        case named(String)
        case number(Int)
    }

    public private(set) var columns: [ImportField: Column]

    /// Parses the `--map` text. Throws one sentence for an unknown field, a field given twice, a bad
    /// column number, or a set of fields that cannot make a morning (no date; orthostatic values
    /// without all three of lying, standing and peak; some questionnaire items without the others).
    public init(_ text: String) throws(ImportError) {
        var columns: [ImportField: Column] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].trimmed.isEmpty else {
                throw ImportError("--map wants FIELD=COLUMN pairs separated by commas, not \"\(pair)\".")
            }
            guard let field = ImportField(rawValue: parts[0].trimmed.lowercased()) else {
                let known = ImportField.allCases.map(\.rawValue).joined(separator: ", ")
                throw ImportError("--map: unknown field \"\(parts[0])\" (known: \(known)).")
            }
            guard columns[field] == nil else { throw ImportError("--map names \(field.rawValue) twice.") }
            let column = parts[1].trimmed
            if let number = Int(column) {
                guard number >= 1 else { throw ImportError("--map: column numbers start at 1, not \(number).") }
                columns[field] = .number(number)
            } else {
                columns[field] = .named(column)
            }
        }
        guard columns[.date] != nil else { throw ImportError("--map needs date=COLUMN.") }
        let has = { (f: ImportField) in columns[f] != nil }
        let orthostatic: [ImportField] = [.lyingHR, .standingHR, .peakHR, .gapAvg, .gapPeak]
        if orthostatic.contains(where: has) {
            // An orthostatic result is lying, standing and peak together (spec §5.3); gaps stand for the
            // last two only with the lying rate they are measured from.
            // Lying HR alone is its own baseline channel (spec §5.4): other apps export it as resting HR.
            guard has(.lyingHR) else {
                throw ImportError("--map: standing_hr, peak_hr and the gaps need lying_hr, the rate they rise from.")
            }
            guard (has(.standingHR) || has(.gapAvg)) == (has(.peakHR) || has(.gapPeak)) else {
                throw ImportError(
                    "--map: an orthostatic result needs lying_hr with standing_hr (or gap_avg) and peak_hr (or gap_peak)."
                )
            }
            guard !(has(.standingHR) && has(.gapAvg)), !(has(.peakHR) && has(.gapPeak)) else {
                throw ImportError("--map: give standing_hr or gap_avg, and peak_hr or gap_peak, not both.")
            }
        }
        let scores = ImportField.scores.filter(has)
        guard scores.isEmpty || scores.count == 5 else {
            throw ImportError("--map: the questionnaire needs all five of fatigue, mood, soreness, stress and sleep.")
        }
        guard columns.count > 1 else { throw ImportError("--map names only the date: nothing to import.") }
        self.columns = columns
    }

    /// A preset's map, by header name.
    init(_ named: [ImportField: String]) {
        columns = named.mapValues { .named($0) }
    }

    /// The header text of each mapped column, for the report.
    func columnName(_ field: ImportField, header: [String]) -> String? {
        switch columns[field] {
        case .named(let name): return name
        case .number(let n): return n <= header.count ? header[n - 1].trimmed : "column \(n)"
        case nil: return nil
        }
    }

    /// Column indexes (0-based) for a header row; throws when a named column is absent or a number is
    /// past the last column.
    func indexes(header: [String], file: String) throws(ImportError) -> [ImportField: Int] {
        var result: [ImportField: Int] = [:]
        let names = header.map { $0.trimmed.lowercased() }
        for (field, column) in columns {
            switch column {
            case .named(let name):
                guard let i = names.firstIndex(of: name.lowercased()) else {
                    throw ImportError.line(
                        file, 1, "no column named \"\(name)\" (for \(field.rawValue)) in the header.")
                }
                result[field] = i
            case .number(let n):
                guard n <= header.count else {
                    throw ImportError.line(
                        file, 1, "the header has \(header.count) columns, not \(n) (for \(field.rawValue)).")
                }
                result[field] = n - 1
            }
        }
        return result
    }
}

extension StringProtocol {
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\n" || f == "\r\n" || f == "\u{FEFF}" {
            s.removeFirst()
        }
        while let l = s.last, l == " " || l == "\t" || l == "\r" || l == "\n" || l == "\r\n" { s.removeLast() }
        return String(s)
    }
}

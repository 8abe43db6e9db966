import RecoveryCore

/// The order of year, month and day in a file's dates, whatever separates them (`-`, `/` or `.`):
/// `--date-format YYYY-DD-MM`. HRV4Training's Android export writes YYYY-DD-MM; spreadsheets write
/// DD/MM/YYYY or MM/DD/YYYY by locale.
public enum DateOrder: String, CaseIterable, Sendable {
    case ymd = "YYYY-MM-DD"
    case ydm = "YYYY-DD-MM"
    case dmy = "DD-MM-YYYY"
    case mdy = "MM-DD-YYYY"

    /// Reads `--date-format`: the three parts in any order, separated by `-`, `/` or `.`.
    public init(option text: String) throws(ImportError) {
        let normal = String(text.uppercased().map { $0 == "/" || $0 == "." ? "-" : $0 })
        guard let order = DateOrder(rawValue: normal) else {
            let known = DateOrder.allCases.map(\.rawValue).joined(separator: ", ")
            throw ImportError("--date-format must be one of \(known) (any of - / . between), not \(echoed(text)).")
        }
        self = order
    }

    /// The date of `parts` (three numbers as written), or nil when they are not a real day in this order.
    func date(_ parts: [Int]) -> LocalDate? {
        guard parts.count == 3 else { return nil }
        switch self {
        case .ymd: return LocalDate(year: parts[0], month: parts[1], day: parts[2])
        case .ydm: return LocalDate(year: parts[0], month: parts[2], day: parts[1])
        case .dmy: return LocalDate(year: parts[2], month: parts[1], day: parts[0])
        case .mdy: return LocalDate(year: parts[2], month: parts[0], day: parts[1])
        }
    }

    var yearFirst: Bool { self == .ymd || self == .ydm }
}

/// A cell's date and optional time: "2026-03-01", "2026/03/01 06:42", "2026-03-01T06:42:10Z",
/// "01.03.2026 6:42". The date's parts are read as written; `DateOrder` says which is which.
struct DateCell {
    var parts: [Int]
    var minute: MinuteOfDay?
    /// The year is written first (YYYY-…), not last (…-YYYY).
    var yearFirst: Bool

    init?(_ text: String) {
        let chars = Array(text)
        var i = 0
        var parts: [Int] = []
        var digits = ""
        while i < chars.count, chars[i] != " ", chars[i] != "T" {
            let c = chars[i]
            if c.isASCII, c.isNumber {
                guard digits.count < 4 else { return nil }
                digits.append(c)
            } else if c == "-" || c == "/" || c == "." {
                guard !digits.isEmpty else { return nil }
                parts.append(Int(digits)!)
                digits = ""
            } else {
                return nil
            }
            i += 1
        }
        guard !digits.isEmpty else { return nil }
        parts.append(Int(digits)!)
        // One part of four digits, first or last: the year.
        let widths = text.prefix { $0 != " " && $0 != "T" }.split(whereSeparator: { "-/.".contains($0) }).map(\.count)
        guard parts.count == 3, widths.count == 3, widths[0] == 4 || widths[2] == 4, widths[1] <= 2 else { return nil }
        self.parts = parts
        self.yearFirst = widths[0] == 4
        let rest = String(chars[i...]).trimmed
        guard !rest.isEmpty else { return }
        var time = Substring(rest.first == "T" ? String(rest.dropFirst()) : rest)
        if time.hasSuffix("Z") { time = time.dropLast() }
        let pieces = time.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2 || pieces.count == 3,
            let h = Int(pieces[0]), let m = Int(pieces[1]), pieces[1].count == 2,
            let minute = MinuteOfDay(hour: h, minute: m)
        else { return nil }
        if pieces.count == 3 {
            guard let seconds = Double(pieces[2]), (0..<61).contains(seconds) else { return nil }
        }
        self.minute = minute
    }
}

/// How the order of a file's dates was settled, for the import's report.
public enum DateOrderChoice: Hashable, Sendable {
    case given
    case detected(line: Int)
    case assumed

    func words(_ order: DateOrder) -> String {
        switch self {
        case .given: "dates read as \(order.rawValue) (--date-format)"
        case .detected(let line): "dates read as \(order.rawValue) (line \(line) decides it)"
        case .assumed: "dates read as \(order.rawValue) (no date decides it; --date-format changes it)"
        }
    }
}

extension DateOrder {
    /// The one order under which every date is a real day. When several fit, a date whose middle or first
    /// part is above 12 rules orders out; when none does, `yearFirstDefault` for year-first dates, and a
    /// refusal for day-first ones (DD/MM and MM/DD are equally common).
    static func detect(_ cells: [(line: Int, text: String, cell: DateCell)], yearFirstDefault: DateOrder, file: String)
        throws(ImportError) -> (DateOrder, DateOrderChoice)
    {
        guard let first = cells.first else { return (yearFirstDefault, .assumed) }
        let family: [DateOrder] = first.cell.yearFirst ? [.ymd, .ydm] : [.dmy, .mdy]
        var fitting = family
        var decider = 0
        for (line, text, cell) in cells {
            let before = fitting.count
            fitting.removeAll { $0.date(cell.parts) == nil }
            if fitting.isEmpty || cell.yearFirst != first.cell.yearFirst {
                let orders = family.map(\.rawValue).joined(separator: " or ")
                throw ImportError.line(
                    file, line, "\(echoed(text)) is not a real day written \(orders) as the file's dates are.")
            }
            if fitting.count < before, decider == 0 { decider = line }
        }
        if fitting.count == 1 { return (fitting[0], .detected(line: decider)) }
        if first.cell.yearFirst { return (yearFirstDefault, .assumed) }
        throw ImportError(
            "\(file): every date fits both DD-MM-YYYY and MM-DD-YYYY; give --date-format DD/MM/YYYY or MM/DD/YYYY.")
    }
}

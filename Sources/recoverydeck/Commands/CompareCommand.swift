import JSON
import Insights
import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeck compare FILE`: the box's morning rMSSD beside another app's daily readings, over the days
/// both have (spec: parallel readings agree in order of magnitude and move together, not equality).
/// Only reads: the database is never written.
struct CompareCommand: Command {
    static let name = "compare"
    static let summary = "Compare the box's morning rMSSD with another app's daily readings."
    static let discussion = """
        FILE is a CSV whose first line names the columns: a date column (date, day, or Elite HRV's
        Date Time Start) and an rMSSD column in ms (rmssd, rmssd (ms), or hrv), matched without regard
        to case or surrounding spaces; rmssd is preferred when both are there, as Elite HRV's HRV
        column is a scaled ln(rMSSD). Elite HRV's readings export is read as it is (with a Type
        column only readiness readings count), and HRV4Training's when its dates are YYYY-MM-DD
        (its Android app's YYYY-DD-MM dates are not read here).
        Dates are YYYY-MM-DD, optionally followed by a time; commas or semicolons separate the
        fields; empty or 0 values are missing. A day given more than once counts its first row.

        Each day is paired with the box's stored morning rMSSD of good quality. Prints n, the ratio
        of means (box / other), Pearson r and Spearman rho of the daily values, the co-movement (r of
        day-to-day changes over consecutive days), and the Bland-Altman bias and 95 % limits of
        ln(box) - ln(other), also as ratios. The verdict: the same order of magnitude when the ratio
        of means is between 0.5 and 2, moving together when the co-movement r is at least 0.3.
        Fewer than 5 days in common are refused. A file over 16 MiB or a malformed line is refused,
        naming the first bad line. Nothing in the database changes.
        """
    static let options: [OptionSpec] = [.flag("json", help: "Print the figures as JSON with full precision.")]
    static let arguments = [ArgumentSpec("FILE", help: "The other app's CSV of daily readings.")]

    /// Files larger than this are not a daily export.
    static let maximumBytes = 16 << 20
    /// The verdict's thresholds (docs/readout.md).
    static let magnitude = 0.5...2.0
    static let coMovement = 0.3

    let file: String
    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        file = parsed.positional(0) ?? ""
        json = parsed.flag("json")
    }

    func validate() throws(CommandError) {
        if file.isEmpty { throw .usage("missing FILE, the other app's CSV.") }
    }

    func run(_ context: Context) throws {
        let bytes = try ProcessIdentity.asInvoker { () throws(CommandError) -> [UInt8] in
            do {
                return try FileDescriptor.readContents(atPath: file, limit: CompareCommand.maximumBytes)
            } catch {
                throw .failure("\(error)")
            }
        }
        let readings = try OtherReadings.read(bytes, name: file)
        guard let first = readings.keys.min(), let last = readings.keys.max() else {
            throw CommandError.failure("\(file) holds no readings.")
        }
        var days: [Agreement.Day] = []
        if let store = try context.existingStore() {
            for day in try store.days(from: first, through: last) {
                guard let m = day.measurement, m.quality.isOK, let deck = m.hrv?.rmssdMs,
                    let other = readings[day.date]
                else { continue }
                days.append(Agreement.Day(day: day.date.dayNumber, deck: deck, other: other))
            }
        }
        guard let a = Agreement(days) else {
            throw CommandError.failure(
                "\(days.count) day\(days.count == 1 ? "" : "s") in common between \(file) and the box; "
                    + "a comparison needs at least \(Agreement.minimumDays).")
        }
        let sameMagnitude = Self.magnitude.contains(a.ratioOfMeans)
        let together = (a.changeCorrelation ?? -.infinity) >= Self.coMovement
        let verdict = Self.verdict(a, sameMagnitude: sameMagnitude, together: together)
        if json {
            let fields: [(String, JSONValue)] = [
                ("n", JSONValue(a.n)), ("first", .string(LocalDate(dayNumber: days.map(\.day).min()!).iso)),
                ("last", .string(LocalDate(dayNumber: days.map(\.day).max()!).iso)),
                ("ratio_of_means", .number(a.ratioOfMeans)), ("pearson", JSONValue(a.pearson)),
                ("spearman", JSONValue(a.spearman)), ("change_correlation", JSONValue(a.changeCorrelation)),
                ("change_pairs", JSONValue(a.changePairs)), ("ln_bias", .number(a.bias)),
                ("ln_lower_limit", .number(a.lowerLimit)), ("ln_upper_limit", .number(a.upperLimit)),
                ("ratio_bias", .number(exp(a.bias))), ("ratio_lower_limit", .number(exp(a.lowerLimit))),
                ("ratio_upper_limit", .number(exp(a.upperLimit))), ("same_magnitude", .bool(sameMagnitude)),
                ("moving_together", .bool(together)), ("verdict", .string(verdict)),
            ]
            context.out(JSONValue.object(fields).serialized(pretty: true))
            return
        }
        func f(_ x: Double?, _ digits: Int = 3) -> String {
            x.map { Formatting.fixed($0, digits: digits) } ?? ReportWording.dash
        }
        let rows: [(String, String)] = [
            ("days", "\(a.n)"),
            ("ratio_of_means", f(a.ratioOfMeans)),
            ("pearson_r", f(a.pearson)),
            ("spearman_rho", f(a.spearman)),
            ("co_movement_r", f(a.changeCorrelation) + " (\(a.changePairs) day-to-day changes)"),
            ("ln_bias", f(a.bias) + " (ratio " + f(exp(a.bias)) + ")"),
            ("ln_limits", f(a.lowerLimit) + " to " + f(a.upperLimit)
                + " (ratio " + f(exp(a.lowerLimit)) + " to " + f(exp(a.upperLimit)) + ")"),
        ]
        for (name, text) in rows { context.out(Formatting.padded(name, 16) + text) }
        context.out(verdict)
    }

    static func verdict(_ a: Agreement, sameMagnitude: Bool, together: Bool) -> String {
        let ratio = Formatting.fixed(a.ratioOfMeans, digits: 2)
        let magnitude =
            sameMagnitude
            ? "the same order of magnitude (ratio of means \(ratio), between 0.5 and 2)"
            : "not the same order of magnitude (ratio of means \(ratio), outside 0.5 to 2)"
        let movement: String
        if let r = a.changeCorrelation {
            let text = Formatting.fixed(r, digits: 2)
            movement = together
                ? "moving together (co-movement r \(text), at least 0.3)"
                : "not moving together (co-movement r \(text), under 0.3)"
        } else {
            movement = "co-movement unknown (too few consecutive days)"
        }
        return "Over \(a.n) days: \(magnitude), \(movement)."
    }
}

/// Another app's daily rMSSD from a CSV: date and rMSSD columns found by name.
enum OtherReadings {
    static let dateNames = ["date", "day", "date time start"]
    static let rmssdNames = ["rmssd", "rmssd (ms)", "hrv"]

    static func read(_ bytes: [UInt8], name: String) throws(CommandError) -> [LocalDate: Double] {
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw .failure("\(name) is not a text file.")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        guard let headerIndex = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else {
            throw .failure("\(name) is empty.")
        }
        let header = lines[headerIndex]
        let separator: Character = header.contains(";") && !header.contains(",") ? ";" : ","
        let names = fields(header, separator).map { $0.trimmed.lowercased() }
        guard let dateColumn = dateNames.lazy.compactMap({ names.firstIndex(of: $0) }).first,
            let rmssdColumn = rmssdNames.lazy.compactMap({ names.firstIndex(of: $0) }).first
        else {
            throw .failure(
                "\(name) line \(headerIndex + 1): the header needs a date column (date, day or Date Time Start) "
                    + "and an rMSSD column (rmssd, rmssd (ms) or hrv): \(quoted(header)).")
        }
        let typeColumn = names.firstIndex(of: "type")
        var readings: [LocalDate: Double] = [:]
        for index in lines.indices where index > headerIndex {
            let line = lines[index]
            if line.allSatisfy(\.isWhitespace) { continue }
            let number = index + 1
            func bad(_ problem: String) -> CommandError {
                .failure("\(name) line \(number): \(problem): \(quoted(line)).")
            }
            let cells = fields(line, separator).map(\.trimmed)
            if cells.allSatisfy(\.isEmpty) { continue }
            guard cells.count > max(dateColumn, rmssdColumn) else { throw bad("too few fields") }
            if let typeColumn, typeColumn < cells.count, cells[typeColumn].lowercased() != "readiness" { continue }
            let dateText = cells[dateColumn]
            guard dateText.utf8.count >= 10, let date = LocalDate(iso: dateText.prefix(10)),
                dateText.count == 10 || dateText.dropFirst(10).first.map({ $0 == " " || $0 == "T" }) == true
            else { throw bad("the date is not YYYY-MM-DD") }
            var valueText = cells[rmssdColumn]
            if valueText.isEmpty { continue }
            if separator == ";" { valueText = valueText.replacingComma() }
            guard let value = Double(valueText), value.isFinite, value >= 0 else {
                throw bad("the rMSSD is not a number of ms")
            }
            if value == 0 || readings[date] != nil { continue }
            guard value <= 500 else { throw bad("an rMSSD above 500 ms is not a reading") }
            readings[date] = value
        }
        return readings
    }

    /// The fields of one line; a field may be quoted with ", a doubled "" inside standing for one.
    static func fields(_ line: Substring, _ separator: Character) -> [String] {
        var result: [String] = []
        var current = ""
        var quoted = false
        var iterator = Array(line).makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { current.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(c)
                }
            } else if c == "\"" && current.allSatisfy(\.isWhitespace) {
                quoted = true
                current = ""
            } else if c == separator {
                result.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        result.append(current)
        return result
    }

    /// The line in quotes, cut to 80 characters, control characters escaped.
    static func quoted(_ line: Substring) -> String {
        var out = ""
        var count = 0
        for scalar in line.unicodeScalars {
            if count == 80 {
                out += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return "\"" + out + "\""
    }
}

extension String {
    fileprivate var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
    fileprivate func replacingComma() -> String { String(map { $0 == "," ? "." : $0 }) }
}

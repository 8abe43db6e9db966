/// The RR files other tools write, read into intervals in ms for `rr analyze` and `import rr` (pure: text in,
/// intervals out).
///
/// Recognised, from the first line that is not blank and not a `#` comment:
/// - values only (numbers separated by spaces, tabs or line ends): one a line (Elite HRV's raw export, a
///   Kubios text export after its `#` header lines) or several a line (Welltory);
/// - a header row, then rows: the column named `rr` (`rr`, `rr_ms`, `RR (ms)`, `RR-interval [ms]`, `rri`,
///   case ignored) holds the intervals. Cells are split on `;` when the header has one (Polar Sensor Logger:
///   `Phone timestamp;RR-interval [ms]`), else on `,`, else on tabs.
/// A UTF-8 byte order mark and CRLF line ends are taken as they come.
///
/// Units: a header that says `[s]` or `(s)` means seconds, `[ms]` or `(ms)` milliseconds. Without one, values that
/// are all below 3 are seconds (no heart beats faster than 3 ms apart, and none is 3 s apart while lying: spec
/// §5.1 keeps 300…2000 ms); they are converted to ms and the reading says so.
///
/// Refused, with the first bad line named: a value that is not a positive number, one that no strap can report
/// (64 s or more: 16 bits of 1/1024 s, Bluetooth HRS §3.1.1.5), a row without the column. Refused as a whole: a
/// file with no values, and a constant series (every interval identical), which no heart produces; a file of
/// 1000 ms lines is a test pattern, not a morning, and would otherwise pass every rule with rMSSD 0.
public struct RRFileFormat: Hashable, Sendable {
    public enum Layout: String, Hashable, Sendable {
        case oneValueALine = "one value a line"
        case valuesSeparatedByWhitespace = "whitespace-separated values"
        case column = "a column of a table"
    }

    public enum Unit: String, Hashable, Sendable {
        case milliseconds = "ms"
        case seconds = "s"
    }

    /// Why a file was refused: the line (1-based) when one is to blame, and what is wrong with it.
    public struct Problem: Error, Hashable, Sendable {
        public var line: Int?
        public var reason: String

        /// The sentence naming the file (and line): "NAME line 3: 'abc' is not …", "NAME holds no RR intervals".
        public func sentence(file name: String) -> String {
            guard let line else { return "\(name) \(reason)." }
            return reason.hasPrefix("has ") || reason.hasPrefix("is ")
                ? "\(name) line \(line) \(reason)." : "\(name) line \(line): \(reason)."
        }
    }

    public var intervalsMs: [Double]
    public var layout: Layout
    public var unit: Unit
    /// The column's name as the header spells it, for `column`.
    public var columnName: String?
    /// Whether the unit came from the values alone (all < 3), not from a header.
    public var unitGuessed: Bool

    /// One sentence on how the file was read when that is worth saying (seconds), else nil.
    public var note: String? {
        guard unit == .seconds else { return nil }
        let why = unitGuessed ? "every value is below 3" : "the header says seconds"
        return "read as seconds (\(why)) and converted to ms."
    }

    /// Values below this, with no unit in a header, are seconds.
    public static let secondsBelow = 3.0
    /// 16 bits of 1/1024 s: the longest RR a strap can report (Bluetooth HRS §3.1.1.5).
    public static let impossibleFromMs = 64_000.0

    /// The whole of a file's text (`RRFileReader` over its bytes).
    public static func read(_ text: String) throws(Problem) -> RRFileFormat {
        var reader = RRFileReader()
        try reader.take(Array(text.utf8))
        return try reader.finish()
    }

    /// A positive number (a cell or a word of a values line).
    static func number(_ text: String, line: Int) throws(Problem) -> Double {
        guard let value = Double(text), value.isFinite, value > 0 else {
            throw Problem(line: line, reason: "\(echoed(text)) is not an RR interval in milliseconds")
        }
        return value
    }

    /// The header row: which column is RR, how cells are separated, and the unit if the name says it.
    static func headerRow(_ line: String, line number: Int) throws(Problem)
        -> (index: Int, separator: Character, name: String, unit: Unit?)
    {
        let separator: Character = line.contains(";") ? ";" : line.contains(",") ? "," : "\t"
        let names = line.split(separator: separator, omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: " \t\"")
        }
        for (index, name) in names.enumerated() {
            let lower = name.lowercased()
            let stem = lower.prefix { $0.isLetter || $0 == "_" || $0 == "-" || $0 == " " }
                .trimmingCharacters(in: " ")
            guard ["rr", "rr_ms", "rr-interval", "rr interval", "rr-intervals", "rri"].contains(stem) else { continue }
            let unit: Unit? =
                lower.contains("[ms]") || lower.contains("(ms)") || lower.hasSuffix("_ms")
                ? .milliseconds : lower.contains("[s]") || lower.contains("(s)") ? .seconds : nil
            return (index, separator, name, unit)
        }
        throw Problem(line: number, reason: "expected RR in ms or a header with an rr column, not \(echoed(line))")
    }
}

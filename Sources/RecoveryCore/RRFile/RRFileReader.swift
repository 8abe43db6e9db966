/// Reads an RR file (`RRFileFormat`) as its bytes arrive, a line at a time, so a long file costs the intervals it
/// holds and one line, never the whole text: `take` each chunk, then `finish`.
///
/// Bounds, each refused with a sentence: a line longer than `maximumLineBytes` (a Welltory line of values is a few
/// KiB), more than `maximumIntervals` intervals (the analysis needs them all at once), a line that is not UTF-8.
public struct RRFileReader: Sendable {
    /// The longest line read: some 100,000 values written on one line.
    public static let maximumLineBytes = 1 << 20
    /// About five days and nights at 70 bpm; a morning is a few hundred, a whole night some 30,000. Held as 8-byte
    /// values, the analysis of this many stays well under 64 MB (Tests/Benchmarks/InputMemory/run.sh).
    public static let maximumIntervals = 500_000

    private var line: [UInt8] = []
    private var lineNumber = 0
    private var afterCR = false
    private var values: [Double] = []
    private var header: (index: Int, separator: Character, name: String, unit: RRFileFormat.Unit?)?
    private var layout = RRFileFormat.Layout.oneValueALine
    /// The first value no strap can send, in the unit it was written, and its line: refused at the end, once
    /// the unit is known (a file of seconds holds no such value).
    private var firstImpossible: (value: Double, line: Int)?

    public init() {}

    /// The next bytes of the file; the first bad line throws.
    public mutating func take(_ bytes: some Collection<UInt8>) throws(RRFileFormat.Problem) {
        for byte in bytes {
            // CRLF is one line end; a lone CR ends a line too.
            if byte == 0x0A, afterCR {
                afterCR = false
                continue
            }
            afterCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                try endLine()
                continue
            }
            guard line.count < Self.maximumLineBytes else {
                throw RRFileFormat.Problem(
                    line: lineNumber + 1, reason: "is longer than \(Self.maximumLineBytes >> 10) KiB; an RR file's lines are short")
            }
            line.append(byte)
        }
    }

    /// The intervals in ms, once the whole file was taken.
    public mutating func finish() throws(RRFileFormat.Problem) -> RRFileFormat {
        if !line.isEmpty { try endLine() }
        guard !values.isEmpty else { throw RRFileFormat.Problem(line: nil, reason: "holds no RR intervals") }
        let statedUnit = header?.unit
        let unit = statedUnit ?? (values.allSatisfy { $0 < RRFileFormat.secondsBelow } ? .seconds : .milliseconds)
        if unit == .seconds {
            for i in values.indices { values[i] *= 1000 }
        }
        if let (value, line) = firstImpossible {
            let ms = unit == .seconds ? value * 1000 : value
            throw RRFileFormat.Problem(line: line, reason: "RR interval \(ms) ms is impossible (a strap reports under 64 s)")
        }
        if values.count > 1, let first = values.first, values.allSatisfy({ $0 == first }) {
            throw RRFileFormat.Problem(
                line: nil,
                reason: "has every interval equal (\(values.count) × \(first) ms): a constant series is a test "
                    + "pattern, not a heart's rhythm, so it is not a morning")
        }
        return RRFileFormat(
            intervalsMs: values, layout: layout, unit: unit, columnName: header?.name, unitGuessed: statedUnit == nil)
    }

    private mutating func endLine() throws(RRFileFormat.Problem) {
        lineNumber += 1
        defer { line.removeAll(keepingCapacity: true) }
        // A UTF-8 byte order mark.
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        guard let text = String(validating: line, as: UTF8.self) else {
            throw RRFileFormat.Problem(line: lineNumber, reason: "is not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: " \t\r")
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return }
        if let h = header {
            let cells = trimmed.split(separator: h.separator, omittingEmptySubsequences: false)
            guard h.index < cells.count else {
                throw RRFileFormat.Problem(line: lineNumber, reason: "has no \(h.name) value")
            }
            try append(RRFileFormat.number(cells[h.index].trimmingCharacters(in: " \t\""), line: lineNumber))
            return
        }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let numeric = words.allSatisfy { Double($0) != nil }
        if values.isEmpty && (!numeric || trimmed.contains(",") || trimmed.contains(";")) {
            header = try RRFileFormat.headerRow(trimmed, line: lineNumber)
            layout = .column
            return
        }
        if words.count > 1 { layout = .valuesSeparatedByWhitespace }
        for word in words { try append(RRFileFormat.number(String(word), line: lineNumber)) }
    }

    private mutating func append(_ value: Double) throws(RRFileFormat.Problem) {
        guard values.count < Self.maximumIntervals else {
            throw RRFileFormat.Problem(
                line: lineNumber,
                reason: "has interval number \(Self.maximumIntervals + 1); an RR file may hold "
                    + "\(Self.maximumIntervals) (about five days and nights), so split it")
        }
        let statedSeconds = header?.unit == .seconds
        if firstImpossible == nil, value * (statedSeconds ? 1000 : 1) >= RRFileFormat.impossibleFromMs {
            firstImpossible = (value, lineNumber)
        }
        values.append(value)
    }
}

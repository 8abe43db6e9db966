/// What an import took from a file and what it left out, and why: printed by `--dry-run` and after the
/// import, so nothing is dropped without saying so.
public struct FieldReport: Hashable, Sendable {
    public struct Taken: Hashable, Sendable {
        public var field: ImportField
        public var column: String
        /// Mornings that had a value in this column.
        public var mornings: Int
        public var note: String?
    }

    public var format: String
    public var dates: String
    public var taken: [Taken] = []
    /// Columns not read, grouped by the reason.
    public var leftOut: [(reason: String, columns: [String])] = []
    /// Rows not read, one sentence per kind ("3 rows of other types …").
    public var rowsLeftOut: [String] = []

    public static func == (a: FieldReport, b: FieldReport) -> Bool { a.lines() == b.lines() }
    public func hash(into hasher: inout Hasher) { hasher.combine(lines()) }

    public func lines() -> [String] {
        var out = ["\(format) file, \(dates)."]
        for t in taken {
            out.append(
                "Came across: \(t.field.rawValue) from \"\(t.column)\" (\(t.mornings) morning\(t.mornings == 1 ? "" : "s"))"
                    + (t.note.map { "; \($0)" } ?? "") + ".")
        }
        for group in leftOut {
            // Long exports (HRV4Training has 64 columns) name the first few, so the reason stays on screen.
            var names = group.columns.prefix(10).map { "\"\($0)\"" }.joined(separator: ", ")
            if group.columns.count > 10 { names += " and \(group.columns.count - 10) more" }
            out.append("Left out: \(names): \(group.reason).")
        }
        for row in rowsLeftOut { out.append("Left out: \(row).") }
        return out
    }
}

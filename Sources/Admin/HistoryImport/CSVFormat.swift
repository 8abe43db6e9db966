/// How to read one kind of day-level CSV file: which column holds which value, and the habits of the
/// app that wrote it. `import csv` builds one from `--map`; `import elitehrv` and `import hrv4training`
/// are presets (`CSVFormat+Presets.swift`).
public struct CSVFormat: Sendable {
    /// Rows kept only when a column holds one value (Elite HRV: `Type` is `readiness`).
    public struct RowFilter: Sendable {
        public var column: String
        public var value: String
        /// Why other rows are not mornings, for the report.
        public var why: String
    }

    /// "csv", "Elite HRV", "HRV4Training": named in the report and the import's source.
    public var name: String
    public var map: ColumnMap
    /// nil: the data decide (`DateOrder.detect`).
    public var dateOrder: DateOrder?
    /// Year-first dates that fit both orders are read this way.
    public var yearFirstDefault: DateOrder = .ymd
    /// Fields whose 0 means "not measured" (HRV4Training writes 0.0 on days without a measurement).
    public var zeroMeansMissing: Set<ImportField> = []
    public var rowFilter: RowFilter?
    /// Several readings of a day: true keeps the earliest as the morning and says so; false refuses the file.
    public var earliestOfDay = false
    /// Rows with no value at all: true leaves them out and counts them; false refuses the file.
    public var skipEmptyRows = false
    /// Why a column the map does not read is left out, by lower-cased header name.
    public var leftOutReasons: [String: String] = [:]
    /// Why a mapped column means the box's field, by field (Elite HRV's `HR` is a rest reading: lying HR).
    public var fieldNotes: [ImportField: String] = [:]

    public init(name: String, map: ColumnMap, dateOrder: DateOrder? = nil) {
        self.name = name
        self.map = map
        self.dateOrder = dateOrder
    }
}

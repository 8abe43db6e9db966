import RecoveryCore

extension Store {
    /// Everything stored, as the export document (`ExportDocument` documents the schema). `full` adds
    /// the raw RR and BPM samples, the settings, the analytics events and the experiments.
    public func exportDocument(full: Bool, generatedAt: Int64) throws(StoreError) -> ExportDocument {
        var settings: [String: String] = [:]
        if full { for (key, value) in try allSettings() { settings[key.rawValue] = value } }
        var days = try allDays()
        if !full {
            for i in days.indices where days[i].measurement != nil {
                days[i].measurement!.rawRR = []
                days[i].measurement!.heartRates = []
            }
        }
        return ExportDocument(
            generatedAt: generatedAt, full: full, habits: try habitList(), days: days, settings: settings,
            analytics: full ? try events() : [], experiments: full ? try experiments() : [])
    }

    /// Every stored day as CSV, one row per day (`DayTable` documents the columns).
    public func exportCSV() throws(StoreError) -> String {
        DayTable.csv(try allDays())
    }
}

import JSON
import Insights
import RecoveryCore
import Store

/// `recoverydeck export`: everything stored, as JSON or CSV (spec §7.4).
struct ExportCommand: Command {
    static let name = "export"
    static let summary = "Write all stored days as JSON (with protocolVersion) or CSV."
    static let discussion = """
        JSON holds every stored day with its check-in and measurement, missing values as null; the
        schema is versioned by protocolVersion. CSV holds one row per day, missing values empty.
        --full adds the raw RR and heart-rate samples of each session, the settings, the local
        analytics events and the experiments (JSON only). JSON also holds a derived "readout": the
        band edges in use and, for each stored day, the ln rMSSD week (ln rMSSD, its 7-day mean and
        CV, the smallest worthwhile change, how many of the 7 mornings were valid); restore ignores
        it, as those figures are recomputed from the days. The file written with -o is readable by
        you alone (mode 0600).
        """
    static let options: [OptionSpec] = [
        .value("format", "json|csv", help: "The format (default json)."),
        .flag("full", help: "Also write raw samples, settings, analytics and experiments (a full backup; JSON only)."),
        .value("output", short: "o", "FILE", help: "Write to FILE instead of standard output."),
    ]

    let format: String
    let full: Bool
    let output: String?

    init(_ parsed: ParsedArguments) throws(CommandError) {
        format = try parsed.choice("format", of: ["json", "csv"]) ?? "json"
        full = parsed.flag("full")
        output = parsed.value("output")
    }

    func validate() throws(CommandError) {
        if full, format == "csv" {
            throw .usage("--full applies to JSON only: CSV holds one row per day. Use --format json --full.")
        }
        if let output, output.isEmpty { throw .usage("-o needs a file name.") }
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let text: String
        let count: Int
        if format == "csv" {
            text = try store.exportCSV()
            count = text.split(separator: "\n").count - 1
        } else {
            let document = try store.exportDocument(full: full, generatedAt: context.nowEpochSeconds)
            var json = document.json
            if case .object(var members) = json {
                members.append(("readout", ExportCommand.readout(document.days, edges: try store.lightEdges())))
                json = .object(members)
            }
            text = json.serialized(pretty: true) + "\n"
            count = document.days.count
        }
        if let output {
            try Files.writeAtomically(text, to: output)
            context.say("Exported \(count) day\(count == 1 ? "" : "s") to \(output).")
        } else {
            context.outRaw(text)
        }
    }

    /// The derived figures (ignored on restore: they are recomputed from the days): the band edges in use and,
    /// per stored day, the ln rMSSD week ending that day.
    static func readout(_ days: [DayRecord], edges: LightEdges) -> JSONValue {
        var rmssd: [Int: Double] = [:]
        for day in days { rmssd[day.date.dayNumber] = Channel.rmssd.value(in: day) }
        return .object([
            ("bandEdges", ReadoutFigures.json(edges)),
            (
                "lnRMSSDWeek",
                .array(
                    days.map { day in
                        let n = day.date.dayNumber
                        let week = LnRMSSDWeek(rmssd: (n - LnRMSSDWeek.baselineWindow + 1...n).map { rmssd[$0] })
                        guard case .object(let figures) = ReadoutFigures.json(week) else { return .null }
                        return .object([("date", .string(day.date.iso))] + figures)
                    })
            ),
        ])
    }
}

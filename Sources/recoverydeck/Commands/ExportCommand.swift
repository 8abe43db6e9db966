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
        analytics events and the experiments (JSON only). The file written with -o is readable by
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
            text = document.json.serialized(pretty: true) + "\n"
            count = document.days.count
        }
        if let output {
            try Files.writeAtomically(text, to: output)
            context.say("Exported \(count) day\(count == 1 ? "" : "s") to \(output).")
        } else {
            context.outRaw(text)
        }
    }
}

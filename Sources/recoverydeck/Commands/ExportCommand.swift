import JSON
import Insights
import LocalClock
import RecoveryCore
import Store

/// `recoverydeck export`: everything stored, as JSON or CSV (spec §7.4).
struct ExportCommand: Command {
    static let name = "export"
    static let summary = "Write all stored days as JSON, CSV or another tool's format, or one morning's raw RR."
    static let discussion = """
        JSON holds every stored day with its check-in and measurement, missing values as null; the
        schema is versioned by protocolVersion. CSV holds one row per day, missing values empty.
        --full adds the raw RR and heart-rate samples of each session, the settings, the local
        analytics events and the experiments (JSON only). JSON also holds a derived "readout": the
        band edges in use and, for each stored day, the ln rMSSD week (ln rMSSD, its 7-day mean and
        CV, the smallest worthwhile change, how many of the 7 mornings were valid) and the "Not like
        you" reading of each stored day; restore ignores it, as those figures are recomputed from the
        days. The file written with -o is readable by
        you alone (mode 0600).

        intervals writes intervals.icu's wellness CSV: date, restingHR (the lying heart rate),
        hrv (rMSSD), hrvSDNN, and the check-in on intervals.icu's own 1-4 scales, where 1 is the good
        end (the box's 7-6 become 1, 5-4 become 2, 3-2 become 3, 1 becomes 4); comments keeps the raw
        1-7 answers and the note. The curl line that uploads it from your own computer is printed on
        standard error; the box itself connects nowhere. goldencheetah writes the HRV4Training-style
        CSV that GoldenCheetah's "Import HRV measures" reads (timestamp_measurement, date as
        YYYY-DD-MM, time, HR, AVNN, SDNN, rMSSD), one row per morning with a valid rMSSD.
        docs/exports.md describes every column.

        --rr DAY writes that morning's raw RR intervals in ms, one a line, from the settle to the stand
        cue, as Kubios and Elite HRV read them; # lines first give the quality, the rMSSD, the artifact
        rule, the values of the rMSSD window and the beats the rule rejected there.
        """
    static let options: [OptionSpec] = [
        .value("format", "json|csv|intervals|goldencheetah", help: "The format (default json)."),
        .value("rr", "YYYY-MM-DD", help: "Write that morning's raw RR intervals instead, one a line."),
        .flag("full", help: "Also write raw samples, settings, analytics and experiments (a full backup; JSON only)."),
        .value("output", short: "o", "FILE", help: "Write to FILE instead of standard output."),
    ]

    let format: String
    let full: Bool
    let output: String?
    let rrDay: LocalDate?
    let formatGiven: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        formatGiven = parsed.value("format") != nil
        format = try parsed.choice("format", of: ["json", "csv", "intervals", "goldencheetah"]) ?? "json"
        full = parsed.flag("full")
        output = parsed.value("output")
        rrDay = try parsed.date("rr")
    }

    func validate() throws(CommandError) {
        if rrDay != nil, formatGiven || full {
            throw .usage("--rr writes one morning's RR intervals; it takes neither --format nor --full.")
        }
        if full, format != "json" {
            throw .usage("--full applies to JSON only: \(format) holds one row per day. Use --format json --full.")
        }
        if let output, output.isEmpty { throw .usage("-o needs a file name.") }
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        if let rrDay { return try writeRR(rrDay, store, context) }
        let text: String
        let count: Int
        let startTime = { (m: MorningMeasurement) in LocalTime(epochSeconds: m.startedAtEpoch).minuteOfDay }
        if format == "csv" {
            text = try store.exportCSV()
            count = text.split(separator: "\n").count - 1
        } else if format == "intervals" {
            text = IntervalsWellnessTable.csv(try store.allDays())
            count = text.split(separator: "\n").count - 1
        } else if format == "goldencheetah" {
            text = HRVMeasuresTable.csv(try store.allDays(), startTime: startTime)
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
        if format == "intervals" {
            // The box never uploads: the person runs this from their own computer (API key: intervals.icu,
            // Settings, Developer Settings; athlete 0 is the key's own athlete).
            let file = output ?? "wellness.csv"
            let saving = output == nil ? " (once saved as wellness.csv)" : ""
            context.say(
                "To upload it to intervals.icu from your own computer\(saving):\n"
                    + "curl -u API_KEY:YOUR_API_KEY -F file=@\(file) https://intervals.icu/api/v1/athlete/0/wellness")
        }
    }

    private func writeRR(_ day: LocalDate, _ store: Store, _ context: Context) throws {
        let record = try store.day(day)
        guard let m = record.measurement else {
            throw CommandError.failure("No morning is stored for \(day.iso); nothing was written.")
        }
        let rule = try store.settings().artifactRule
        // An imported morning has no time of day of its own (the import knows the date only).
        let start = record.imported ? nil : LocalTime(epochSeconds: m.startedAtEpoch).minuteOfDay
        guard let text = MorningRRText.text(m, rule: rule, startTime: start) else {
            throw CommandError.failure(
                "The morning of \(day.iso) keeps no raw RR (a day imported from a CSV, or one measured without RR); "
                    + "nothing was written.")
        }
        if let output {
            try Files.writeAtomically(text, to: output)
            context.say("Wrote the raw RR of \(day.iso) to \(output).")
        } else {
            context.outRaw(text)
        }
    }

    /// The derived figures (ignored on restore: they are recomputed from the days): the band edges in use and,
    /// per stored day, the ln rMSSD week ending that day.
    static func readout(_ days: [DayRecord], edges: LightEdges) -> JSONValue {
        var detector: [LocalDate: NotLikeYou.Morning] = [:]
        if let last = days.last?.date {
            for (date, morning) in NotLikeYou.run(days: days, through: last) { detector[date] = morning }
        }
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
            (
                "notLikeYou",
                .array(
                    days.compactMap { day in
                        guard let m = detector[day.date],
                            case .object(let figures) = NotLikeYouFigures.json(m, on: day.date)
                        else { return nil }
                        return .object([("date", .string(day.date.iso))] + figures)
                    })
            ),
        ])
    }
}

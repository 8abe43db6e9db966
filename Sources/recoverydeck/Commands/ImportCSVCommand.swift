import Admin
import Platform
import RecoveryCore
import Store

/// `recoverydeck import csv`: history from a spreadsheet or another app, so baselines need not wait
/// 14 days. The file is read and checked whole before the database is opened.
struct ImportCSVCommand: Command {
    static let name = "import csv"
    static let summary = "Import past mornings from a CSV file (spreadsheet, app export)."
    static let synopsis: String? =
        "FILE --map date=COL,rmssd=COL[,FIELD=COL]... [--date-format ORDER] [--dry-run] [--force]"
    static let discussion = """
        COL is a header name or a column number (from 1). Fields: date, rmssd (ms), lying_hr,
        standing_hr or gap_avg, peak_hr or gap_peak (bpm), and fatigue, mood, soreness, stress,
        sleep (1 to 7, all five or none). lying_hr alone (another app's resting HR) is imported as
        the lying heart rate. Empty cells stay missing; header names may carry spaces, rows may end
        in commas, fields may be quoted. A date may carry a time (2026-03-01 06:42);
        semicolon-separated files with decimal commas are read too.

        The order of year, month and day is decided by the data when a date decides it (a middle
        field above 12 means YYYY-DD-MM); year-first dates that fit both orders are YYYY-MM-DD.
        --date-format names the order. No day after today or before 2000-01-01 is accepted.

        Imported days are marked imported. A day the box measured, or whose questionnaire the box
        took, is kept unless --force is given; a day imported before is replaced. A malformed file
        changes nothing: the first bad line is named. Which columns came across and which were left
        out is printed by --dry-run and after the import. Elite HRV's "HRV" column is a scaled
        ln(rMSSD), not rMSSD: use `import elitehrv`, or import its raw RR files with `import rr`.
        """
    static let options: [OptionSpec] =
        [.value("map", "FIELD=COL,...", help: "Which column holds which value; date and one more are needed.")]
        + CSVImportOptions.specs
    static let arguments = [ArgumentSpec("FILE", help: "The CSV file; its first line names the columns.")]

    var map: ColumnMap
    var common: CSVImportOptions

    init(_ parsed: ParsedArguments) throws(CommandError) {
        guard let mapText = parsed.value("map") else {
            throw .usage("missing --map (for example --map date=Date,rmssd=rMSSD).")
        }
        do { map = try ColumnMap(mapText) } catch { throw .usage(error.message) }
        common = try CSVImportOptions(parsed)
    }

    func run(_ context: Context) throws {
        try common.run(CSVFormat(name: "csv", map: map), context)
    }
}

/// What `import csv`, `import elitehrv` and `import hrv4training` share: the file, the dates' order,
/// a dry run and --force.
struct CSVImportOptions {
    static let specs: [OptionSpec] = [
        .value(
            "date-format", "ORDER", help: "YYYY-MM-DD, YYYY-DD-MM, DD/MM/YYYY or MM/DD/YYYY (default: from the data)."),
        .flag("dry-run", help: "Show what would change and which fields come across, and change nothing."),
        .flag("force", help: "Also replace days the box measured."),
    ]

    var file: String
    var dateOrder: DateOrder?
    var dryRun: Bool
    var force: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        file = parsed.positional(0) ?? ""
        if let text = parsed.value("date-format") {
            do { dateOrder = try DateOrder(option: text) } catch { throw .usage(error.message) }
        }
        dryRun = parsed.flag("dry-run")
        force = parsed.flag("force")
    }

    func run(_ preset: CSVFormat, _ context: Context) throws {
        var format = preset
        if let dateOrder { format.dateOrder = dateOrder }
        try HistoryImporter.importCSV(file: file, format: format, dryRun: dryRun, force: force, context: context)
    }
}

/// An app whose CSV export has a preset: its command's words and help, and how to read the file.
protocol CSVPreset {
    static var member: String { get }
    static var summary: String { get }
    static var discussion: String { get }
    static var fileHelp: String { get }
    static var format: CSVFormat { get }
}

/// `recoverydeck import elitehrv|hrv4training FILE`: `import csv` with the app's map and habits built in.
struct ImportPresetCommand<Preset: CSVPreset>: Command {
    static var name: String { "import " + Preset.member }
    static var summary: String { Preset.summary }
    static var synopsis: String? { "FILE [--date-format ORDER] [--dry-run] [--force]" }
    static var discussion: String { Preset.discussion }
    static var options: [OptionSpec] { CSVImportOptions.specs }
    static var arguments: [ArgumentSpec] { [ArgumentSpec("FILE", help: Preset.fileHelp)] }

    var common: CSVImportOptions

    init(_ parsed: ParsedArguments) throws(CommandError) { common = try CSVImportOptions(parsed) }

    func run(_ context: Context) throws { try common.run(Preset.format, context) }
}

/// Elite HRV's readings export, its morning readiness readings.
enum EliteHRVPreset: CSVPreset {
    static let member = "elitehrv"
    static let summary = "Import past mornings from Elite HRV's readings CSV export."
    static let discussion = """
        Reads the readings export (Date Time Start, Type, HR, HRV, Rmssd, …, with or without Tags,
        Notes and Value 1 to 3 after Duration). Morning readiness readings are the mornings: Rmssd
        comes across as rMSSD and HR as the lying heart rate; the earliest readiness reading of a
        day is its morning. Elite HRV's HRV score, tags, notes and custom values are left out, and
        the import says so. Its raw RR .txt files go through `import rr` instead.

        Days are kept, replaced and refused as by `import csv`.
        """
    static let fileHelp = "Elite HRV's readings CSV."
    static var format: CSVFormat { .eliteHRV }
}

/// HRV4Training's measurements export.
enum HRV4TrainingPreset: CSVPreset {
    static let member = "hrv4training"
    static let summary = "Import past mornings from HRV4Training's CSV export."
    static let discussion = """
        Reads the export as the app writes it: spaces before the column names, a blank second line,
        rows ending in a comma, and dates written YYYY-DD-MM by the Android app (detected from the
        data; year-first dates that fit both orders are read YYYY-DD-MM). rMSSD comes across, and HR
        as the lying heart rate; 0.0 means no measurement that day, not a zero. HRV4Training's
        subjective items cannot make the box's five-item check-in (no mood or stress item, another
        scale), so they are left out, and the import says so.

        Days are kept, replaced and refused as by `import csv`.
        """
    static let fileHelp = "HRV4Training's CSV export."
    static var format: CSVFormat { .hrv4Training }
}

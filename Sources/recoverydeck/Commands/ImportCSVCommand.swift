import Admin
import Platform
import RecoveryCore
import Store

/// `recoverydeck import csv`: history from a spreadsheet or another app, so baselines need not wait
/// 14 days. The file is read and checked whole before the database is opened.
struct ImportCSVCommand: Command {
    static let name = "import csv"
    static let summary = "Import past mornings from a CSV file (spreadsheet, app export)."
    static let synopsis: String? = "FILE --map date=COL,rmssd=COL[,FIELD=COL]... [--dry-run] [--force]"
    static let discussion = """
        COL is a header name or a column number (from 1). Fields: date, rmssd (ms), lying_hr,
        standing_hr or gap_avg, peak_hr or gap_peak (bpm), and fatigue, mood, soreness, stress,
        sleep (1 to 7, all five or none). Empty cells stay missing. A date may carry a time
        (2026-03-01 06:42); semicolon-separated files with decimal commas are read too.

        Imported days are marked imported. A day the box measured, or whose questionnaire the box
        took, is kept unless --force is given; a day imported before is replaced. A malformed file
        changes nothing: the first bad line is named. Elite HRV's "HRV" column is a scaled
        ln(rMSSD), not rMSSD: map its rMSSD column, or import its raw RR files with `import rr`.
        """
    static let options: [OptionSpec] = [
        .value("map", "FIELD=COL,...", help: "Which column holds which value; date and one more are needed."),
        .flag("dry-run", help: "Show what would change, and change nothing."),
        .flag("force", help: "Also replace days the box measured."),
    ]
    static let arguments = [ArgumentSpec("FILE", help: "The CSV file; its first line names the columns.")]

    var file: String
    var map: ColumnMap
    var dryRun: Bool
    var force: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        file = parsed.positional(0) ?? ""
        guard let mapText = parsed.value("map") else {
            throw .usage("missing --map (for example --map date=Date,rmssd=rMSSD).")
        }
        do { map = try ColumnMap(mapText) } catch { throw .usage(error.message) }
        dryRun = parsed.flag("dry-run")
        force = parsed.flag("force")
    }

    func run(_ context: Context) throws {
        let mornings: [ImportedMorning]
        do {
            mornings = try CSVHistory.read(ImportFiles.text(atPath: file), map: map, file: file)
        } catch {
            throw CommandError.failure(error.message + " Nothing was imported.")
        }
        try HistoryImporter.apply(mornings, source: "csv:" + file, dryRun: dryRun, force: force, context: context)
    }
}

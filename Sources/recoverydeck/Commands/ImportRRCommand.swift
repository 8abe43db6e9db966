import Admin
import Platform
import RecoveryCore
import Store

/// `recoverydeck import rr`: past mornings from raw RR recordings, analysed with the box's own rules.
struct ImportRRCommand: Command {
    static let name = "import rr"
    static let summary = "Import past mornings from RR files, one per morning, named by date."
    static let synopsis: String? = "DIR [--dry-run] [--force]"
    static let discussion = """
        Each file is named YYYY-MM-DD… (Elite HRV's raw export, "2026-03-01 06-42-10.txt", fits)
        and holds RR intervals as `rr analyze` reads them (one a line, Kubios, Welltory, Polar
        Sensor Logger, a CSV with an rr column; seconds are recognised and said). rMSSD is
        computed with the box's own morning window and artifact rules, over adjacent pairs; a
        recording that fails them is imported as failed and does not count, and one whose
        intervals are all identical is refused. When a day has several recordings, the earliest
        is the morning.

        Imported days are marked imported. A day the box measured is kept unless --force is given;
        a day imported before is replaced. A malformed file changes nothing: its first bad line is
        named.
        """
    static let options: [OptionSpec] = [
        .flag("dry-run", help: "Show what would change, and change nothing."),
        .flag("force", help: "Also replace days the box measured."),
    ]
    static let arguments = [ArgumentSpec("DIR", help: "The folder of RR files.")]

    var directory: String
    var dryRun: Bool
    var force: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        directory = parsed.positional(0) ?? ""
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        dryRun = parsed.flag("dry-run")
        force = parsed.flag("force")
    }

    func run(_ context: Context) throws {
        let result: RRHistory.Result
        do {
            // The person's folder, read with their own rights (also when root acts as the box's owner).
            let files = try ProcessIdentity.asInvoker { () throws(ImportError) in
                try ImportFiles.files(inDirectory: directory)
            }
            result = try RRHistory.read(files, directory: directory)
        } catch {
            throw CommandError.failure(error.message + " Nothing was imported.")
        }
        for note in result.notes { context.say(note) }
        for (name, date) in result.skipped {
            context.say("\(name): a later recording of \(date.iso); the earliest one is the morning.")
        }
        try HistoryImporter.apply(
            result.mornings, source: "rr:" + directory, dryRun: dryRun, force: force, context: context)
    }
}

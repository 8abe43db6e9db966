import RecoveryCore
import Store

/// `recoverydeck delete`: remove all data, or one day (spec §11.2 "Delete all data").
struct DeleteCommand: Command {
    /// How long delete waits for another program's read to end before it says the file is not yet scrubbed.
    static let readerWaitMs: Int64 = 10_000

    static let name = "delete"
    static let summary = "Delete all data, or one day's; needs --yes."
    static let synopsis: String? = "(--all | --day YYYY-MM-DD) --yes"
    static let discussion = """
        --all deletes every day, measurement and raw RR, every analytics event and every setting
        (display name, habit list, paired strap), and scrubs the database file so none of it can be
        read back from the disk. --day deletes one day's check-in, measurement and analytics.
        There is no undo: export first if in doubt.
        """
    static let options: [OptionSpec] = [
        .flag("all", help: "Delete everything."),
        .value("day", "YYYY-MM-DD", help: "Delete this day only."),
        .flag("yes", help: "Confirm the deletion."),
    ]

    let all: Bool
    let day: LocalDate?
    let confirmed: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        all = parsed.flag("all")
        day = try parsed.date("day")
        confirmed = parsed.flag("yes")
    }

    func validate() throws(CommandError) {
        if all, day != nil { throw .usage("give either --all or --day, not both.") }
        if !all, day == nil { throw .usage("say what to delete: --all or --day YYYY-MM-DD.") }
        if !confirmed { throw .usage("deleting needs --yes to confirm; nothing was deleted.") }
    }

    func run(_ context: Context) throws {
        // With no database there is nothing to delete, and making an empty one would change the disk.
        guard let store = try context.existingStore() else {
            throw CommandError.failure("there is no database at \(try context.databasePath()); nothing was deleted.")
        }
        // A session for a day being deleted is cancelled first, or it would save right after the delete.
        if try DaemonNudge.cancelSession(deleting: day, context) {
            context.say("The morning being measured was cancelled first; nothing of it is kept.")
        }
        // Records waiting for the database must not bring a deleted day back.
        let spool = MorningSpool.existing(forDatabase: store.path)
        if let day {
            let spooled = try spool?.removeDays(from: day, through: day) ?? 0
            guard try store.deleteDay(day) || spooled > 0 else {
                // Nothing left to delete, but a log an earlier delete could not empty is emptied now.
                let scrubbed = try store.scrubLog(withinMs: Self.readerWaitMs)
                throw CommandError.failure(
                    "nothing is stored for \(day.iso); nothing was deleted"
                        + (scrubbed ? "." : ", and another program is still reading the database."))
            }
            context.say("Deleted everything stored for \(day.iso).")
            DaemonNudge.storeChanged(context)
        } else {
            try spool?.removeAll()
            try store.deleteAll()
            DaemonNudge.storeChanged(context)
        }
        // Committed: what is left is emptying the log into the file, which another program's open read can hold
        // up. Say so rather than fail a delete that happened, and say it is waiting so a pause is not taken for a hang.
        var scrubbed = try store.scrubLog(withinMs: 0)
        if !scrubbed {
            context.say("Another program is reading the database; waiting up to \(Self.readerWaitMs / 1000) s for it to end.")
            scrubbed = try store.scrubLog(withinMs: Self.readerWaitMs)
        }
        if scrubbed {
            if day == nil { context.say("Deleted all data; the database file \(store.path) was scrubbed.") }
        } else {
            context.say(
                "Deleted\(day == nil ? " all data" : ""); another program is still reading the database, so the deleted "
                    + "bytes stay in its log until that program ends; the same delete run again then scrubs the file.")
        }
    }
}

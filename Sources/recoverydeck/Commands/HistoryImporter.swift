import Admin
import LocalClock
import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// The part both imports share: plan against what the database holds, print the plan, and write it in
/// one transaction unless it is a dry run.
enum HistoryImporter {
    static func apply(
        _ mornings: [ImportedMorning], source: String, dryRun: Bool, force: Bool, report: [String] = [],
        context: Context
    ) throws {
        // No morning after today, none before a sane floor: a wrong clock or a typo, never history.
        for morning in mornings {
            if let problem = morning.date.morningDateProblem(today: context.today) {
                throw CommandError.failure("\(morning.origin): \(problem) Nothing was imported.")
            }
        }
        // A dry run against a database that does not exist yet creates none: every day would be added.
        let path = try context.databasePath()
        let store = dryRun && access(path, F_OK) != 0 ? nil : try context.store()
        var existing: [LocalDate: DayRecord] = [:]
        if let store, let first = mornings.map(\.date).min(), let last = mornings.map(\.date).max() {
            for day in try store.days(from: first, through: last) { existing[day.date] = day }
        }
        let plan = ImportPlan(mornings, existing: existing, force: force)
        for line in plan.lines() { context.out(line) }
        let kept = plan.count(.keepBox)
        let writes = plan.writes
        var summary =
            "\(plan.count(.add)) added, \(plan.count(.replaceImported)) replaced (imported before), "
            + "\(plan.count(.replaceBox)) box records replaced, \(kept) box records kept"
        if kept > 0 { summary += " (--force replaces them)" }
        for line in report { context.say(line) }
        if dryRun {
            context.say("Dry run, nothing changed: \(summary).")
            return
        }
        if let store, !writes.isEmpty {
            let records = writes.map { $0.dayRecord(epochOfStart: { LocalTime.epochSeconds(of: $0, at: $1) }) }
            try store.saveImportedDays(records, source: source, recordedAt: context.nowEpochSeconds)
        }
        context.say("Imported from \(source): \(summary).")
    }

    /// `import csv` and its presets: read the file whole as `format` says, then apply it.
    static func importCSV(file: String, format: CSVFormat, dryRun: Bool, force: Bool, context: Context) throws {
        let result: CSVHistory.Result
        do {
            // The person's file, read with their own rights (also when root acts as the box's owner).
            let text = try ProcessIdentity.asInvoker { () throws(ImportError) in try ImportFiles.text(atPath: file) }
            result = try CSVHistory.read(text, format: format, file: file, today: context.today)
        } catch {
            throw CommandError.failure(error.message + " Nothing was imported.")
        }
        let prefix = format.name == "csv" ? "csv" : format.name.lowercased().filter { $0 != " " }
        try apply(
            result.mornings, source: prefix + ":" + file, dryRun: dryRun, force: force,
            report: result.report.lines(), context: context)
    }
}

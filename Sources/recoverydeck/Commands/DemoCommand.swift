import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeck demo`: a seeded synthetic person's 60 mornings, through the real core and store, in a
/// temporary database; then today's status and a two-week history. No hardware needed.
struct DemoCommand: Command {
    static let name = "demo"
    static let summary = "Show a synthetic person's 60 mornings: today's lights and two weeks."
    static let discussion = """
        Builds a seeded synthetic person (resting heart with respiratory variation, day-to-day
        recovery, an orthostatic rise, habits with planted effects) and puts 60 mornings ending today
        through the same metric core and store the box uses, in a temporary database. Your own
        database is not touched. The same seed gives the same person on every machine.
        """
    static let options: [OptionSpec] = [
        .value("seed", "N", help: "The synthetic person's seed (default 10, a person having a rough week)."),
        .flag("keep", help: "Keep the temporary database and print its path, to explore with --db."),
    ]

    let seed: UInt64
    let keep: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        let text = parsed.value("seed") ?? "10"
        guard let seed = UInt64(text) else {
            throw .usage("--seed must be a whole number from 0 to \(UInt64.max), not \(quoted(text)).")
        }
        self.seed = seed
        keep = parsed.flag("keep")
    }

    func run(_ context: Context) throws {
        let directory = try DemoCommand.temporaryDirectory(context)
        let path = directory + "/recoverydeck.db"
        defer {
            if !keep {
                for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
                rmdir(directory)
            }
        }
        let today = context.today
        let days = 60
        let person = SyntheticPerson(seed: seed, firstDate: today.adding(days: -(days - 1)))
        do {
            let store = try Store(path: path)
            context.say("Seeding \(days) synthetic mornings (seed \(seed)) ending \(today.iso)…")
            let wakeUp = MinuteOfDay(hour: 6, minute: 40)!
            let startedAt = { (date: LocalDate) in LocalTime.epochSeconds(of: date, at: wakeUp) }
            try store.seedSyntheticHistory(person: person, days: 0..<(days - 1), startedAt: startedAt)
            // Today always has its morning, so the gate is open and there is something to show.
            try store.seedSyntheticHistory(
                person: person, days: (days - 1)..<days, missingShare: 0, startedAt: startedAt)
            context.outRaw(try StatusReport(store: store, today: today).text)
            context.out("")
            context.out("The last two weeks:")
            context.outRaw(try HistoryReport(store: store, today: today, days: 14).text)
        }
        if keep { context.say("The demo database is \(path); explore it with: recoverydeck --db \(path) history") }
    }

    private static func temporaryDirectory(_ context: Context) throws(CommandError) -> String {
        var base = context.environment("TMPDIR") ?? "/tmp"
        if base.isEmpty { base = "/tmp" }
        var template = Array((base + "/recoverydeck-demo-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw .failure("cannot create a temporary directory in \(base): \(String(cString: strerror(errno))).")
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

import BoxConfiguration
import Appliance
import LocalClock
import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeck demo`: a live morning through the real daemon code, on any Linux machine: a virtual
/// strap, a simulated panel, a temporary database holding the synthetic person's earlier mornings, and
/// time sped up. The terminal shows the panel as it changes, then the readout.
struct DemoCommand: Command {
    static let name = "demo"
    static let summary = "Run a live synthetic morning through the real daemon, then show the readout."
    static let discussion = """
        Starts the box's own daemon in this process with a simulated panel and a virtual strap, in a
        temporary database seeded with a synthetic person's 59 earlier mornings (resting heart with
        respiratory variation, day-to-day recovery, an orthostatic rise, habits with planted effects).
        The keypad questionnaire is keyed, GO is pressed, and the whole morning runs: connect, settle,
        rMSSD, lying heart rate, the 3-2-1 stand cue, standing, saving, the readout. The terminal shows
        each key, lamp, sound and phase as it happens (in session time), then today's status and two
        weeks of history. Time runs 20 times faster by default (about 10 s); --speed 1 is real time.
        Your own database is not touched; the same seed gives the same morning on every machine.
        """
    static let options: [OptionSpec] = [
        .value("seed", "N", help: "The synthetic person's seed (default 10, a person having a rough week)."),
        .value("speed", "N", help: "How many times faster than real time, 1–1000 (default 20)."),
        .flag("keep", help: "Keep the temporary database and print its path, to explore with --db."),
    ]

    static let historyDays = 59

    let seed: UInt64
    let speed: Double
    let keep: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        let text = parsed.value("seed") ?? "10"
        guard let seed = UInt64(text) else {
            throw .usage("--seed must be a whole number from 0 to \(UInt64.max), not \(quoted(text)).")
        }
        self.seed = seed
        speed = Double(try parsed.integer("speed", in: 1...1000) ?? 20)
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
        let now = context.now
        let today = now.date
        let firstDate = today.adding(days: -DemoCommand.historyDays)
        let person = SyntheticPerson(seed: seed, firstDate: firstDate)
        do {
            let store = try Store(path: path)
            let wakeUp = MinuteOfDay(hour: 6, minute: 40)!
            try store.seedSyntheticHistory(person: person, days: 0..<DemoCommand.historyDays) {
                LocalTime.epochSeconds(of: $0, at: wakeUp)
            }
        }
        context.out(
            "RecoveryDeck demo: a live morning of synthetic person \(seed) through the real daemon, with a "
                + "virtual strap and a simulated panel, \(Int(speed))× real time.")
        context.out(
            "\(DemoCommand.historyDays) earlier mornings are in a temporary database; times below are session time.")
        context.out("")

        var configuration = DaemonConfiguration()
        configuration.database = path
        configuration.panel = .simulated
        configuration.strap = .simulated
        configuration.clock = .simulated
        configuration.clockStart = (today, now.minuteOfDay)
        configuration.speed = speed
        configuration.simulatedSeed = seed
        configuration.reminderEnabled = false
        configuration.logLevel = .warning
        var options = Daemon.Options()
        options.controlSocket = false
        options.virtualFirstDate = firstDate
        let daemon: Daemon
        do { daemon = try Daemon(configuration: configuration, options: options) } catch {
            throw CommandError.failure(error.description)
        }

        let timeline = DemoTimeline(context: context, daemon: daemon)
        daemon.observer = { timeline.record($0) }
        daemon.start()
        let habits = daemon.routine.configuration.habits
        let questionnaire = person.day(DemoCommand.historyDays).questionnaire
        _ = daemon.panel.schedule(
            presses: DemoCommand.presses(questionnaire, habits: habits), startMs: daemon.clock.monotonicMs())
        daemon.run(until: { timeline.finished })
        let interrupted = daemon.stopRequested
        daemon.shutDown()
        if interrupted { throw CommandError.failure("The demo was interrupted.") }
        context.out("")
        let store = try Store(path: path)
        context.outRaw(try StatusReport(store: store, today: today).text)
        context.out("")
        context.out("The last two weeks:")
        context.outRaw(try HistoryReport(store: store, today: today, days: 14).text)
        if keep { context.say("The demo database is \(path); explore it with: recoverydeck --db \(path) history") }
    }

    /// The person at the panel: a key to wake the questionnaire, the five scores, the morning's habits
    /// in habit mode, `#`, then GO; one press every 0.7 s of session time.
    static func presses(_ questionnaire: Questionnaire, habits: [String]) -> [(atMs: Int64, what: String)] {
        var keys: [String] = ["1"]
        keys += SubjectiveItem.allCases.map { String(questionnaire.scores[$0].value) }
        let habitKeys = questionnaire.habits.compactMap { habit in habits.firstIndex(of: habit).map { String($0 + 1) } }
        if !habitKeys.isEmpty { keys += ["0"] + habitKeys + ["0"] }
        keys.append("#")
        var presses: [(atMs: Int64, what: String)] = []
        var t: Int64 = 500
        for key in keys {
            presses.append((t, key))
            t += 700
        }
        presses.append((t + 1000, "go"))
        return presses
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

import Appliance
import BoxConfiguration
import ControlProtocol
import JSON
import LocalClock
import Platform
import RecoveryCore
import Simulation
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeck demo`: a live morning through the real daemon, run in this process, on any Linux machine: a virtual
/// strap, a simulated panel, a temporary database holding the synthetic person's earlier mornings, and
/// time sped up. The terminal shows the panel as it changes, then the readout.
struct DemoCommand: Command {
    static let name = "demo"
    static let summary = "Run a live synthetic morning through the real daemon, then show the readout."
    static let discussion = """
        Runs the box's own daemon (recoverydeckd's code, in this process) with a simulated panel and a
        virtual strap, and talks to it over its control socket as any client does. Its temporary
        database is seeded with a synthetic person's 59 earlier mornings (resting heart with
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
        let configPath = directory + "/recoverydeck.conf"
        let simulationPath = directory + "/simulation.conf"
        let socketPath = directory + "/control.sock"
        defer {
            unlink(configPath)
            unlink(simulationPath)
            unlink(socketPath)
            if !keep {
                for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
                rmdir(directory)
            }
        }
        let now = context.now
        let today = now.date
        let firstDate = today.adding(days: -DemoCommand.historyDays)
        let person = SyntheticPerson(seed: seed, firstDate: firstDate)
        let habits: [String]
        do {
            let store = try Store(path: path)
            let wakeUp = MinuteOfDay(hour: 6, minute: 40)!
            try store.seedSyntheticHistory(person: person, days: 0..<DemoCommand.historyDays) {
                LocalTime.epochSeconds(of: $0, at: wakeUp)
            }
            habits = try store.habitList()
        }
        context.out(
            "RecoveryDeck demo: a live morning of synthetic person \(seed) through the real daemon, with a "
                + "virtual strap and a simulated panel, \(Int(speed))× real time.")
        context.out(
            "\(DemoCommand.historyDays) earlier mornings are in a temporary database; times below are session time.")
        context.out("")

        // A simulated box: the configuration names the simulated panel and strap, which the simulated box hands
        // the daemon; the simulation its clock, starting at this minute, its speed and the virtual strap's person.
        try DemoCommand.write(
            """
            database = \(path)
            control_socket = \(socketPath)
            panel = simulated
            strap = simulated
            reminder = off
            log_level = warning

            """, to: configPath)
        try DemoCommand.write(
            """
            clock = simulated
            clock_start = \(today.iso) \(now.minuteOfDay)
            speed = \(Int(speed))
            simulated_seed = \(seed)
            simulated_first_date = \(firstDate.iso)

            """, to: simulationPath)
        // Ctrl-C reaches the daemon too (one process group); here it ends the demo between two packets.
        let signals: SignalFD
        do { signals = try SignalFD(signals: [.interrupt, .terminate]) } catch {
            throw CommandError.failure("cannot take the interrupt signal: \(error).")
        }
        defer { signals.close() }
        let daemon = try DemoDaemon(config: configPath, simulation: simulationPath)
        defer { daemon.stop() }

        let watcher = try daemon.connect()
        let first = try SessionFollower.send(watcher, .watch, SessionStatus.self)
        let questionnaire = person.day(DemoCommand.historyDays).questionnaire
        let presses = DemoCommand.presses(questionnaire, habits: habits).map { Press($0.what, afterMs: $0.atMs) }
        let started = try daemon.send(.press(presses), PressesScheduled.self)
        let timeline = DemoTimeline(context: context, startMs: started.sessionMs)
        timeline.record(.snapshot(first.snapshot))
        while !timeline.finished {
            let ready: [FileDescriptor]
            let watched = [watcher.connection.descriptor, signals.descriptor]
            do {
                ready = try ReadinessWait.readable(watched, timeoutMs: 60_000)
            } catch { throw CommandError.failure("Waiting for recoverydeckd failed: \(error).") }
            if ready.contains(signals.descriptor) { throw DemoCommand.interrupted(signals) }
            if ready.isEmpty { throw CommandError.failure("recoverydeckd sent nothing for a minute.") }
            let packet: ControlEvent?
            do { packet = try watcher.nextEvent(timeoutMs: 0) } catch {
                if let pending = try? signals.readPending(), !pending.isEmpty {
                    throw CommandError.failure("The demo was interrupted.")
                }
                throw CommandError.failure(error.description)
            }
            if let packet { timeline.record(packet) }
        }
        daemon.stop()
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
            throw .failure("cannot create a temporary directory in \(base): \(Errno.current.message).")
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Takes the pending signal, so it is not delivered when the demo unblocks it on the way out.
    static func interrupted(_ signals: SignalFD) -> CommandError {
        _ = try? signals.readPending()
        return .failure("The demo was interrupted.")
    }

    private static func write(_ text: String, to path: String) throws(CommandError) {
        guard let file = fopen(path, "wx") else {
            throw .failure("cannot write \(path): \(Errno.current.message).")
        }
        let written = fputs(text, file) >= 0
        guard fclose(file) == 0, written else { throw .failure("cannot write \(path).") }
    }
}

/// The demo's daemon: the box's own daemon on a simulated box (`SimulatedBox`), running on a thread of its own
/// in this process and reached over its control socket as any client reaches it; stopped with the simulation's
/// `stop` request, and waited for, before the demo reads the database.
final class DemoDaemon {
    private let socket: String
    private var thread: pthread_t?

    init(config: String, simulation simulationPath: String) throws(CommandError) {
        let daemon: Daemon
        do {
            let configuration = try DaemonConfiguration.load(path: config, required: true)
            let simulation = try Simulation.load(path: simulationPath, for: configuration)
            var options = Daemon.Options()
            // The demo takes Ctrl-C itself, and stops the daemon with a request.
            options.handleSignals = false
            let box = SimulatedBox(simulation: simulation, logger: options.logger)
            box.prepare(&options, for: configuration)
            daemon = try Daemon(configuration: configuration, options: options)
            try box.attach(daemon)
            socket = configuration.controlSocket
            let runner = Unmanaged.passRetained(DemoRunner(daemon: daemon, box: box)).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { argument in
                let runner = Unmanaged<DemoRunner>.fromOpaque(argument!).takeRetainedValue()
                _ = runner.daemon.run()
                return nil
            }, runner)
            guard status == 0 else {
                Unmanaged<DemoRunner>.fromOpaque(runner).release()
                throw CommandError.failure("cannot start the demo's daemon: \(Errno(rawValue: status).message).")
            }
            self.thread = thread
        } catch let error as CommandError {
            throw error
        } catch {
            throw .failure("\(error)")
        }
    }

    /// A connection to the daemon's control socket (it listens from the moment it is made).
    func connect() throws(CommandError) -> ControlClient {
        do { return try ControlClient(path: socket, connectTimeoutMs: 2_000) } catch {
            throw .failure(error.description)
        }
    }

    /// Sends one of the simulated box's own requests and returns the reply.
    func send<Answer: ControlAnswer>(_ request: SimulationRequest, _ answer: Answer.Type) throws(CommandError)
        -> Answer
    {
        let reply: JSONValue
        let client = try connect()
        do { reply = try client.send(json: request.json) } catch { throw .failure(error.description) }
        if let refusal = SimulationRefusal(reply: reply) { throw .failure(refusal.message) }
        do { return try Answer.decode(reply) } catch { throw .failure(error.description) }
    }

    /// Asks the daemon to stop and waits for it to finish writing.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        _ = try? send(.stop, Acknowledged.self)
        pthread_join(thread, nil)
    }
}

/// What the daemon's thread holds: the daemon and the simulated box that answers its simulation requests.
private final class DemoRunner {
    let daemon: Daemon
    let box: SimulatedBox

    init(daemon: Daemon, box: SimulatedBox) {
        self.daemon = daemon
        self.box = box
    }
}

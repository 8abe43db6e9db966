@testable import BoxConfiguration
import ControlProtocol
import JSON
import LocalClock
import Foundation
import Platform
import Store
import Testing

@testable import Appliance
@testable import Simulation
@testable import RecoveryCore

/// A daemon in this process, on a simulated clock that steps from deadline to deadline at a huge speed,
/// with a simulated panel, the virtual strap, a temporary database and a control socket: the whole box,
/// a morning in a fraction of a second, the same on every run.
final class DaemonHarness {
    static let today = LocalDate(year: 2026, month: 3, day: 10)!

    let directory: String
    var configuration: DaemonConfiguration
    /// The simulated clock at a huge speed, and the virtual strap's person from 59 days before today.
    var simulation: Simulation
    var daemon: Daemon!
    /// The simulated box the daemon runs on (its clock, virtual strap and requests).
    var box: SimulatedBox!
    var events: [DaemonEvent] = []
    /// The daemon's log lines (`<priority>message …`), as the journal would keep them.
    let journal = Journal()

    /// Real time as the daemon's clock reads it: the kernel's, moved on by hand (`passRealTime`), so a test of
    /// what waits in real time (a restore's pause) never sleeps.
    private let realSkew = RealSkew()

    /// Daemon options beyond the harness's own (a strap or management socket of a test's).
    var adjust: (inout Daemon.Options) -> Void

    init(
        start: String = "06:00", edit: (inout DaemonConfiguration) -> Void = { _ in },
        simulate: (inout Simulation) -> Void = { _ in },
        options adjust: @escaping (inout Daemon.Options) -> Void = { _ in }
    ) throws {
        self.adjust = adjust
        directory = NSTemporaryDirectory() + "recoverydeck-appliance-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        configuration = DaemonConfiguration()
        configuration.database = directory + "/recoverydeck.db"
        configuration.controlSocket = directory + "/control.sock"
        configuration.panel = .simulated
        configuration.strap = .simulated
        configuration.logLevel = .warning
        edit(&configuration)
        simulation = Simulation()
        simulation.clock = .simulated
        simulation.clockStart = (DaemonHarness.today, MinuteOfDay(hhmm: start)!)
        simulation.speed = 1_000_000
        simulation.simulatedFirstDate = DaemonHarness.today.adding(days: -59)
        simulate(&simulation)
        try launch()
    }

    /// (Re)starts the daemon on the same database, as a restart of the service would.
    func launch() throws {
        daemon?.shutDown()
        daemon = nil
        var options = Daemon.Options()
        options.handleSignals = false
        options.environment = { _ in nil }
        let journal = self.journal
        options.logger = Logger(sink: LogSink { journal.append($0) })
        adjust(&options)
        var clock: (any DaemonClock)?
        if simulation.clock == .simulated {
            let start = simulation.clockStart ?? (DaemonHarness.today, MinuteOfDay(hour: 6, minute: 0)!)
            let skew = realSkew
            clock = SteppedClock(
                speed: simulation.speed, startEpoch: LocalTime.epochSeconds(of: start.date, at: start.minute),
                guardFacts: simulation.unsynchronisedBoot.map { .init(synchronised: false, bootEpochSeconds: $0) },
                realTime: { SystemClock.monotonicMs() + skew.ms })
        }
        box = SimulatedBox(simulation: simulation, clock: clock, logger: options.logger)
        box.prepare(&options, for: configuration)
        daemon = try Daemon(configuration: configuration, options: options)
        try box.attach(daemon)
        daemon.observer = { [unowned self] in events.append($0) }
        daemon.start()
    }

    deinit {
        daemon?.shutDown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var store: Store { daemon.store }
    var phase: MorningSession.Phase { daemon.routine.session.phase }

    /// Steps the loop until `done` or `limit` steps.
    @discardableResult
    func run(limit: Int = 200_000, until done: () -> Bool) -> Bool {
        var steps = 0
        while steps < limit {
            if done() { return true }
            do { try daemon.step() } catch {
                Issue.record("step failed: \(error)")
                return false
            }
            steps += 1
        }
        return false
    }

    /// Moves the daemon's real time on by `ms` (the session's clock stays where it is).
    func passRealTime(ms: Int64) { realSkew.ms += ms }

    /// Presses on the simulated panel, from now.
    func press(_ presses: [(atMs: Int64, what: String)]) {
        let scheduled = box.panel?.schedule(presses.map { Press($0.what, afterMs: $0.atMs) }, startMs: daemon.clock.monotonicMs())
        #expect(scheduled == true)
    }

    /// Keys a whole questionnaire (wake key, five scores, #).
    func keyQuestionnaire(_ scores: [Int] = [5, 5, 4, 5, 6]) {
        var presses: [(atMs: Int64, what: String)] = [(0, "1")]
        for (i, s) in scores.enumerated() { presses.append((Int64(i + 1) * 500, String(s))) }
        presses.append((3500, "#"))
        press(presses)
        run { daemon.routine.day.questionnaire != nil }
    }

    /// One request over the control socket, answered by stepping the loop (no second thread).
    func request(_ request: ControlRequest, client: ControlClient? = nil) throws -> JSONValue {
        try self.request(json: request.json, client: client)
    }

    /// One of the simulated box's own requests (presses, clock moves).
    func request(_ request: SimulationRequest, client: ControlClient? = nil) throws -> JSONValue {
        try self.request(json: request.json, client: client)
    }

    func request(json request: JSONValue, client: ControlClient? = nil) throws -> JSONValue {
        let client = try client ?? ControlClient(path: configuration.controlSocket)
        try client.connection.send(Array(request.serialized().utf8))
        var reply: JSONValue?
        run(limit: 1000) {
            reply = try? client.next(timeoutMs: 0)
            return reply != nil
        }
        return try #require(reply)
    }

    var sounds: [Sound] { events.compactMap { if case .sound(let s) = $0 { s } else { nil } } }
    var sentences: [String] { events.compactMap { if case .said(let s) = $0 { s } else { nil } } }
}

/// How far a harness has moved real time on by hand.
final class RealSkew: @unchecked Sendable {
    var ms: Int64 = 0
}

/// Log lines collected from a daemon (the sink may be called from any thread).
final class Journal: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    func append(_ line: String) { lock.withLock { collected.append(line) } }

    var lines: [String] { lock.withLock { collected } }
}

import ControlProtocol
import Foundation
import Platform
import RecoveryCore
import Store
import TestSupport
import Testing

@testable import Appliance

/// The built daemon as systemd runs it: a separate process, `NOTIFY_SOCKET`, signals; `recoverydeckd-sim`, the box's
/// daemon on a simulated box.
@Suite(.serialized)
struct DaemonProcessTests {
    static var executable: URL {
        get throws {
            var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<3 {
                let candidate = directory.appendingPathComponent("recoverydeckd-sim")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
            throw CocoaError(.fileNoSuchFile)
        }
    }

    /// A temporary directory with a simulated-box configuration, and its simulation (`simulation.conf`
    /// beside it, which `start` hands to the daemon).
    static func box(speed: Int, extra: String = "") throws -> (dir: String, config: String) {
        let dir = NSTemporaryDirectory() + "recoverydeckd-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let config = dir + "/recoverydeck.conf"
        try """
        database = \(dir)/recoverydeck.db
        control_socket = \(dir)/control.sock
        panel = simulated
        strap = simulated
        \(extra)
        """.write(toFile: config, atomically: true, encoding: .utf8)
        try """
        clock = simulated
        clock_start = 2026-03-10 06:00
        speed = \(speed)
        """.write(toFile: simulation(config), atomically: true, encoding: .utf8)
        return (dir, config)
    }

    /// The simulation file `box` wrote beside `config`.
    static func simulation(_ config: String) -> String {
        (config as NSString).deletingLastPathComponent + "/simulation.conf"
    }

    /// The box's database in `dir` with the simulated clock's day (2026-03-10) checked in.
    static func checkedIn(_ dir: String) throws -> (Store, LocalDate) {
        let store = try Store(path: dir + "/recoverydeck.db")
        let today = LocalDate(year: 2026, month: 3, day: 10)!
        try store.saveQuestionnaire(
            Questionnaire(date: today, scores: SubjectiveScores([5, 5, 5, 5, 5])!), recordedAt: 0)
        return (store, today)
    }

    /// Our side of sd_notify(3), bound in the box's folder: the daemon is given it as `NOTIFY_SOCKET` and sends
    /// READY=1 once it listens on its control socket, so a test waits for that datagram instead of trying to
    /// connect until it works.
    static func notifySocket(_ dir: String) throws -> ServiceManagerSocket {
        try ServiceManagerSocket(address: try #require(UnixSocketAddress(dir + "/notify.sock")))
    }

    /// `recoverydeckd --config config`, its journal to `stderr`, telling `notify` when it is ready as systemd's
    /// Type=notify would be told.
    static func start(_ config: String, stderr: Child.Output, notify: ServiceManagerSocket) throws -> Child {
        try Child(
            try executable.path, ["--config", config, "--simulation", simulation(config)],
            environment: ["NOTIFY_SOCKET": notify.address.text, "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no"],
            stderr: stderr)
    }

    /// The next packet of a `watch` stream whose session snapshot is in `phase`, within `seconds`: the daemon pushes
    /// each change, so the test waits on the socket instead of asking again and again.
    static func watch(_ socket: String, untilPhase phase: String, seconds: Int32) throws -> Bool {
        let client = try ControlClient(path: socket)
        _ = try client.send(.watch)
        var deadline = Int64(seconds) * 1000
        while deadline > 0 {
            let started = DispatchTime.now().uptimeNanoseconds
            guard let packet = try client.next(timeoutMs: Int32(deadline)) else { return false }
            if (packet["snapshot"] ?? packet)["phase"]?.stringValue == phase { return true }
            deadline -= Int64((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
        }
        return false
    }

    @Test("Type=notify without libsystemd: READY=1, STATUS=…, and WATCHDOG=1 at half WATCHDOG_USEC")
    func notifiesServiceManager() throws {
        let (dir, config) = try Self.box(speed: 1)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let notify = try Self.notifySocket(dir)
        defer { notify.close() }
        let started = Date()
        let process = try Child(
            try Self.executable.path, ["--config", config, "--simulation", Self.simulation(config)],
            environment: [
                "NOTIFY_SOCKET": notify.address.text, "WATCHDOG_USEC": "400000", "TZ": "UTC",
                "SWIFT_BACKTRACE": "enable=no",
            ], stderr: .null)
        var messages: [String] = []
        while messages.filter({ $0 == "WATCHDOG=1" }).count < 3, let message = notify.next(timeoutMs: 3000) {
            messages.append(message)
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(messages.first?.hasPrefix("READY=1\nSTATUS=") == true, "\(messages)")
        let pings = messages.filter { $0 == "WATCHDOG=1" }.count
        #expect(pings >= 3, "\(messages)")
        // Half of 400 ms: about five pings a second, not more.
        #expect(Double(pings) <= elapsed * 5 + 2)
        process.signal(SIGTERM)
        #expect(try process.terminationStatus == 0)
    }

    @Test(
        "A peer that is not root, the daemon's user or in the service's group is refused with one sentence and changes nothing",
        .enabled(if: geteuid() == 0, "connecting as another user needs root"))
    func refusedPeer() throws {
        let (dir, config) = try Self.box(speed: 20, extra: "control_group = recoverydeck-test-no-such-group")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, today) = try Self.checkedIn(dir)
        let notify = try Self.notifySocket(dir)
        defer { notify.close() }
        let daemon = try Self.start(config, stderr: .pipe, notify: notify)
        let socket = dir + "/control.sock"
        #expect(notify.waitForReady(timeoutMs: 30_000))
        // Past the file permissions (0660), so that only the peer-credential check stands in the way.
        chmod(dir, 0o755)
        chmod(socket, 0o666)
        // `recoverydeck measure` as nobody: with today's questionnaire in, an admitted peer would start a morning.
        let recoverydeck = try Self.executable.deletingLastPathComponent().appendingPathComponent("recoverydeck")
        let cli = try Child(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", recoverydeck.path, "measure", "--socket", socket],
            stdout: .null, stderr: .pipe)
        let said = String(decoding: cli.errors!.readDataToEndOfFile(), as: UTF8.self)
        #expect(try cli.terminationStatus == 1)
        #expect(
            said == "recoverydeck measure: Only root or members of the service's group may control the box.\n")
        // Nothing started, nothing written.
        let status = try ControlClient(path: socket).send(.status)
        #expect(status["snapshot"]?["phase"]?.stringValue == "idle")
        daemon.signal(SIGTERM)
        try daemon.wait()
        #expect(try store.measurement(on: today) == nil)
        let journal = String(decoding: daemon.errors!.readDataToEndOfFile(), as: UTF8.self)
        #expect(journal.contains("<4>control socket: refused a peer") && journal.contains("peer.uid=65534"))
    }

    @Test("`recoverydeck settings` tells the running daemon at once: the reminder turned off is off without a restart")
    func settingsReachTheDaemon() throws {
        let (dir, config) = try Self.box(speed: 1)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let notify = try Self.notifySocket(dir)
        defer { notify.close() }
        let daemon = try Self.start(config, stderr: .pipe, notify: notify)
        let socket = dir + "/control.sock"
        #expect(notify.waitForReady(timeoutMs: 30_000))
        let cli = try Child(
            try Self.executable.deletingLastPathComponent().appendingPathComponent("recoverydeck").path,
            ["settings", "--reminder", "off"],
            environment: [
                "RECOVERYDECK_DB": dir + "/recoverydeck.db", "RECOVERYDECK_SOCKET": socket, "TZ": "UTC",
                "SWIFT_BACKTRACE": "enable=no",
            ], stderr: .null)
        #expect(try cli.terminationStatus == 0)
        daemon.signal(SIGTERM)
        try daemon.wait()
        let journal = String(decoding: daemon.errors!.readDataToEndOfFile(), as: UTF8.self)
        #expect(journal.contains("settings changed") && journal.contains("reminder=off"), "\(journal)")
    }

    @Test(
        "`recoverydeck restore` with the daemon running: refused mid-session, done between sessions with writes paused")
    func restoreCoordinatesWithTheDaemon() throws {
        let (dir, config) = try Self.box(speed: 1, extra: "log_level = info")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, today) = try Self.checkedIn(dir)
        // The backup: another day's check-in, as `export --full` writes it.
        let backup = try Store(path: dir + "/backup.db")
        try backup.saveQuestionnaire(
            Questionnaire(date: today.adding(days: -1), scores: SubjectiveScores([3, 3, 3, 3, 3])!), recordedAt: 0)
        try backup.exportDocument(full: true, generatedAt: 1).json.serialized(pretty: true).write(
            toFile: dir + "/backup.json", atomically: true, encoding: .utf8)
        let notify = try Self.notifySocket(dir)
        defer { notify.close() }
        let daemon = try Self.start(config, stderr: .pipe, notify: notify)
        let socket = dir + "/control.sock"
        #expect(notify.waitForReady(timeoutMs: 30_000))
        func restore() throws -> (Int32, String) {
            let cli = try Child(
                try Self.executable.deletingLastPathComponent().appendingPathComponent("recoverydeck").path,
                ["restore", dir + "/backup.json", "--replace"],
                environment: [
                    "RECOVERYDECK_DB": dir + "/recoverydeck.db", "RECOVERYDECK_SOCKET": socket, "TZ": "UTC",
                    "SWIFT_BACKTRACE": "enable=no",
                ], stderr: .pipe)
            let said = String(decoding: cli.errors!.readDataToEndOfFile(), as: UTF8.self)
            return (try cli.terminationStatus, said)
        }
        #expect(try ControlClient(path: socket).send(.measure(overwrite: false))["ok"]?.boolValue == true)
        let (refusedStatus, refused) = try restore()
        #expect(refusedStatus == 1)
        #expect(
            refused.contains("A morning session is running") && refused.contains("Nothing was restored."), "\(refused)")
        #expect(try store.questionnaire(on: today) != nil, "the refused restore changed the database")
        #expect(try ControlClient(path: socket).send(.cancel)["ok"]?.boolValue == true)
        let (status, said) = try restore()
        #expect(status == 0, "\(said)")
        #expect(try store.questionnaire(on: today) == nil && store.questionnaire(on: today.adding(days: -1)) != nil)
        // The daemon read the restored day: today has no check-in now, so a morning is refused for that.
        let after = try ControlClient(path: socket).send(.measure(overwrite: false))
        #expect(after["error"]?.stringValue == "questionnaire_missing", "\(after)")
        daemon.signal(SIGTERM)
        try daemon.wait()
        let journal = String(decoding: daemon.errors!.readDataToEndOfFile(), as: UTF8.self)
        #expect(journal.contains("writes paused for a restore") && journal.contains("writes resumed"), "\(journal)")
    }

    @Test("SIGTERM mid-session: exit 0, the day as it was (no measurement), the database intact, the socket gone")
    func sigtermMidSession() throws {
        let (dir, config) = try Self.box(speed: 20)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, today) = try Self.checkedIn(dir)
        let notify = try Self.notifySocket(dir)
        defer { notify.close() }
        let process = try Self.start(config, stderr: .null, notify: notify)
        let socket = dir + "/control.sock"
        #expect(notify.waitForReady(timeoutMs: 30_000))
        let client = try ControlClient(path: socket)
        #expect(try client.send(.measure(overwrite: false))["ok"]?.boolValue == true)
        // Wait until it is well into the morning (standing), then stop the service.
        #expect(try Self.watch(socket, untilPhase: "captureStanding", seconds: 30))
        process.signal(SIGTERM)
        #expect(try process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(try store.measurement(on: today) == nil)
        #expect(try store.questionnaire(on: today) != nil)
    }
}

import ControlProtocol
import Foundation
import Platform
import RecoveryCore
import Store
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

    /// `recoverydeckd --config config`, its journal to `stderr`.
    static func start(_ config: String, stderr: Any) throws -> Process {
        let process = Process()
        process.executableURL = try executable
        process.arguments = ["--config", config, "--simulation", simulation(config)]
        process.environment = ["TZ": "UTC", "SWIFT_BACKTRACE": "enable=no"]
        process.standardError = stderr
        try process.run()
        return process
    }

    /// The daemon answers on `socket` within 30 s. The file alone is not the sign: it appears at bind(2), and a
    /// connect before the daemon's listen(2) is refused (seen under qemu-user on a loaded machine).
    static func waitUntilListening(_ socket: String) -> Bool {
        waitFor(30) { (try? ControlClient(path: socket).send(.status)) != nil }
    }

    static func waitFor(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return false
    }

    @Test("Type=notify without libsystemd: READY=1, STATUS=…, and WATCHDOG=1 at half WATCHDOG_USEC")
    func notifiesServiceManager() throws {
        let (dir, config) = try Self.box(speed: 1)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let notifyPath = dir + "/notify.sock"
        // Our side of sd_notify: a datagram socket the daemon sends to.
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in notifyPath.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        let process = Process()
        process.executableURL = try Self.executable
        process.arguments = ["--config", config, "--simulation", Self.simulation(config)]
        process.environment = ["NOTIFY_SOCKET": notifyPath, "WATCHDOG_USEC": "400000", "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no"]
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var messages: [String] = []
        _ = Self.waitFor(3) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n <= 0 { break }
                messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
            }
            return messages.filter { $0 == "WATCHDOG=1" }.count >= 3
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(messages.first?.hasPrefix("READY=1\nSTATUS=") == true, "\(messages)")
        let pings = messages.filter { $0 == "WATCHDOG=1" }.count
        #expect(pings >= 3, "\(messages)")
        // Half of 400 ms: about five pings a second, not more.
        #expect(Double(pings) <= elapsed * 5 + 2)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test(
        "A peer that is not root, the daemon's user or in the service's group is refused with one sentence and changes nothing",
        .enabled(if: geteuid() == 0, "connecting as another user needs root"))
    func refusedPeer() throws {
        let (dir, config) = try Self.box(speed: 20, extra: "control_group = recoverydeck-test-no-such-group")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, today) = try Self.checkedIn(dir)
        let log = Pipe()
        let daemon = try Self.start(config, stderr: log)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let socket = dir + "/control.sock"
        #expect(Self.waitUntilListening(socket))
        // Past the file permissions (0660), so that only the peer-credential check stands in the way.
        chmod(dir, 0o755)
        chmod(socket, 0o666)
        // `recoverydeck measure` as nobody: with today's questionnaire in, an admitted peer would start a morning.
        let cli = Process()
        cli.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        let recoverydeck = try Self.executable.deletingLastPathComponent().appendingPathComponent("recoverydeck")
        cli.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", recoverydeck.path, "measure", "--socket", socket,
        ]
        let output = Pipe()
        cli.standardError = output
        cli.standardOutput = FileHandle.nullDevice
        try cli.run()
        cli.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(cli.terminationStatus == 1)
        #expect(
            said == "recoverydeck measure: Only root or members of the service's group may control the box.\n")
        // Nothing started, nothing written.
        let status = try ControlClient(path: socket).send(.status)
        #expect(status["snapshot"]?["phase"]?.stringValue == "idle")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(try store.measurement(on: today) == nil)
        let journal = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(journal.contains("<4>control socket: refused a peer") && journal.contains("peer.uid=65534"))
    }

    @Test("`recoverydeck settings` tells the running daemon at once: the reminder turned off is off without a restart")
    func settingsReachTheDaemon() throws {
        let (dir, config) = try Self.box(speed: 1)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = Pipe()
        let daemon = try Self.start(config, stderr: log)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let socket = dir + "/control.sock"
        #expect(Self.waitUntilListening(socket))
        let cli = Process()
        cli.executableURL = try Self.executable.deletingLastPathComponent().appendingPathComponent("recoverydeck")
        cli.arguments = ["settings", "--reminder", "off"]
        cli.environment = ["RECOVERYDECK_DB": dir + "/recoverydeck.db", "RECOVERYDECK_SOCKET": socket, "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no"]
        cli.standardError = FileHandle.nullDevice
        try cli.run()
        cli.waitUntilExit()
        #expect(cli.terminationStatus == 0)
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let journal = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
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
        let log = Pipe()
        let daemon = try Self.start(config, stderr: log)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let socket = dir + "/control.sock"
        #expect(Self.waitUntilListening(socket))
        func restore() throws -> (Int32, String) {
            let cli = Process()
            cli.executableURL = try Self.executable.deletingLastPathComponent().appendingPathComponent("recoverydeck")
            cli.arguments = ["restore", dir + "/backup.json", "--replace"]
            cli.environment = ["RECOVERYDECK_DB": dir + "/recoverydeck.db", "RECOVERYDECK_SOCKET": socket, "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no"]
            let err = Pipe()
            cli.standardError = err
            try cli.run()
            cli.waitUntilExit()
            return (
                cli.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            )
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
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let journal = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(journal.contains("writes paused for a restore") && journal.contains("writes resumed"), "\(journal)")
    }

    @Test("SIGTERM mid-session: exit 0, the day as it was (no measurement), the database intact, the socket gone")
    func sigtermMidSession() throws {
        let (dir, config) = try Self.box(speed: 20)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, today) = try Self.checkedIn(dir)
        let process = try Self.start(config, stderr: FileHandle.nullDevice)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let socket = dir + "/control.sock"
        #expect(Self.waitUntilListening(socket))
        let client = try ControlClient(path: socket)
        #expect(try client.send(.measure(overwrite: false))["ok"]?.boolValue == true)
        // Wait until it is well into the morning (standing), then stop the service.
        #expect(
            try Self.waitFor(30) {
                let status = try ControlClient(path: socket).send(.status)
                return status["snapshot"]?["phase"]?.stringValue == "captureStanding"
            })
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(try store.measurement(on: today) == nil)
        #expect(try store.questionnaire(on: today) != nil)
    }
}

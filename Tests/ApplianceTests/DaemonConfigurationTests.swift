@testable import BoxConfiguration
import Foundation
import Testing

@testable import Appliance
@testable import Simulation
@testable import RecoveryCore

/// recoverydeckd's configuration file: defaults, every key, and bad lines named with their number.
struct DaemonConfigurationTests {
    @Test("An empty file means every documented default (DESIGN §2 pin map, 06:30 reminder, 10:00 window)")
    func defaults() throws {
        let c = try DaemonConfiguration.parse("", path: "x.conf")
        #expect(c == DaemonConfiguration())
        #expect(c.pins.goButton == 17 && c.pins.keypadRows == [5, 6, 13, 19] && c.pins.keypadColumns == [12, 16, 20])
        #expect(
            c.pins.red == 22 && c.pins.yellow == 23 && c.pins.green == 24 && c.pins.blue == 25 && c.pins.buzzer == 18)
        #expect(c.reminderWindowEnd == MinuteOfDay(hhmm: "10:00") && c.reminderTime == nil && !c.reminderBuzzer)
        #expect(c.panel == .gpio && c.strap == .bluetooth)
        let s = try Simulation.parse("", path: "s.conf")
        #expect(s == Simulation() && s.speed == 1 && s.clock == .system && s.panelScript == nil)
    }

    @Test(
        "A simulation key in recoverydeck.conf is an unknown key there: a real box's file has no test knobs",
        arguments: [
            "speed", "clock", "clock_start", "simulated_seed", "simulated_first_date", "simulated_hr_only",
            "simulated_dropout", "simulated_artifacts", "simulated_connect_seconds", "panel_script",
        ])
    func simulationKeysAreNotConfiguration(key: String) throws {
        #expect(Simulation.keys.contains { $0.name == key })
        #expect(!DaemonConfiguration.keys.contains { $0.name == key })
        do {
            _ = try DaemonConfiguration.parse("\(key) = 1\n", path: "x")
            Issue.record("\(key) was accepted in recoverydeck.conf")
        } catch {
            #expect(error.description == "x:1: unknown key \"\(key)\" (see recoverydeckd --print-config)")
        }
    }

    @Test("The printed defaults parse back to the defaults, so --print-config is a valid file")
    func printedDefaultsRoundTrip() throws {
        let c = try DaemonConfiguration.parse(DaemonConfiguration.documentedDefaults, path: "printed")
        #expect(c.rendered == DaemonConfiguration().rendered)
        let s = try Simulation.parse(Simulation.documentedDefaults, path: "printed")
        #expect(s.rendered == Simulation().rendered)
    }

    @Test("Keys, comments, spaces and every kind of value are read")
    func readsValues() throws {
        let text = """
            # a comment
            database = /data/rd.db   # trailing comment
            panel=simulated
              strap  =  simulated
            pin_keypad_rows = 1, 2, 3, 4
            reminder_time = 07:15
            reminder_buzzer = on
            habits = alcohol, sauna
            """
        let c = try DaemonConfiguration.parse(text, path: "x")
        #expect(c.database == "/data/rd.db" && c.panel == .simulated && c.strap == .simulated)
        #expect(c.pins.keypadRows == [1, 2, 3, 4] && c.reminderTime == MinuteOfDay(hhmm: "07:15") && c.reminderBuzzer)
        #expect(c.habits == ["alcohol", "sauna"])
        let simulation = """
            speed = 20   # the demo's
            simulated_dropout = 150:20
            clock = simulated
            clock_start = 2026-03-10 06:00
            """
        let s = try Simulation.parse(simulation, path: "s")
        #expect(s.speed == 20 && s.clock == .simulated)
        #expect(s.simulatedDropout?.atSeconds == 150 && s.simulatedDropout?.forSeconds == 20)
        #expect(s.clockStart?.date == LocalDate(year: 2026, month: 3, day: 10))
    }

    @Test(
        "A bad line is named with its number and what is wrong",
        arguments: [
            ("panel = gpio\nnonsense\n", 2, "expected \"key = value\""),
            ("colour = red\n", 1, "unknown key \"colour\""),
            ("\n\npanel = hdmi\n", 3, "panel: use gpio or simulated"),
            ("pin_go = seventeen\n", 1, "pin_go: use a GPIO line number"),
            ("pin_keypad_rows = 1, 2, 3\n", 1, "give 4 GPIO line numbers"),
            ("reminder_time = 6.30\n", 1, "reminder_time: use HH:MM"),
            ("buzzer = maybe\n", 1, "buzzer: use on or off"),
            ("panel = gpio\npanel = gpio\n", 2, "\"panel\" is set twice"),
            ("habits = Alcohol\n", 1, "is not a habit name"),
            ("\nadapter = bluetooth0\n", 2, "adapter: use a controller name such as hci0 or its address"),
            ("adapter = hci\n", 1, "adapter: use a controller name"),
            ("adapter = 00:1A:7D:DA:71\n", 1, "adapter: use a controller name"),
            ("strap_address = A0:9E:1A\n", 1, "strap_address: use a Bluetooth address such as A0:9E:1A:12:34:56"),
            ("\n\nstrap_address = polar\n", 3, "strap_address: use a Bluetooth address"),
            ("reminder_window_end = 06:00\nreminder_time = 07:00\n", 2, "reminder_time 07:00 must come before"),
            ("reminder_time = 10:30\n", 1, "must come before reminder_window_end 10:00"),
        ])
    func badLineNamed(text: String, line: Int, says: String) {
        Self.expectProblem(text, line: line, says: says, path: "/etc/recoverydeck/recoverydeck.conf") {
            (text, path) throws(DaemonConfiguration.Problem) in _ = try DaemonConfiguration.parse(text, path: path)
        }
    }

    /// `parse` refuses `text` with one problem naming `path`, `line` and `says`.
    static func expectProblem(
        _ text: String, line: Int, says: String, path: String,
        parse: (String, String) throws(DaemonConfiguration.Problem) -> Void
    ) {
        do {
            try parse(text, path)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.description.hasPrefix("\(path):\(line): "))
            #expect(error.description.contains(says), "\(error)")
        }
    }

    @Test(
        "A bad simulation line is named with its number and what is wrong",
        arguments: [
            ("speed = 0\n", 1, "speed: use a number from 1 to 1000"),
            ("\nsimulated_dropout = soon\n", 2, "use AT:FOR"),
            ("clock = fast\n", 1, "clock: use system or simulated"),
            ("database = /tmp/x.db\n", 1, "unknown key \"database\" (see recoverydeckd-sim --print-simulation)"),
            ("speed = 2\nspeed = 3\n", 2, "\"speed\" is set twice"),
        ])
    func badSimulationLineNamed(text: String, line: Int, says: String) {
        Self.expectProblem(text, line: line, says: says, path: "s.conf") {
            (text, path) throws(DaemonConfiguration.Problem) in _ = try Simulation.parse(text, path: path)
        }
    }

    @Test(
        "Values that contradict each other are refused as a whole",
        arguments: [
            ("reminder_time = 10:30\n", "must come before reminder_window_end"),
            ("pin_red = 17\n", "pins"),
        ])
    func contradictions(text: String, says: String) {
        #expect(throws: DaemonConfiguration.Problem.self) { try DaemonConfiguration.parse(text, path: "x") }
        do { _ = try DaemonConfiguration.parse(text, path: "x") } catch {
            #expect(error.description.contains(says), "\(error)")
        }
    }

    @Test(
        "A simulation the box cannot run is refused with 78, naming the simulation file's line, touching nothing",
        arguments: [
            ("strap = bluetooth\n", "speed = 20\nclock = simulated\n", 2, "clock = simulated needs strap = simulated in the configuration"),
            ("panel = gpio\n", "panel_script = /tmp/x\n", 1, "panel_script needs panel = simulated in the configuration"),
            ("panel = simulated\n", "\nspeed = 5000\n", 2, "speed: use a number from 1 to 1000"),
        ])
    func simulationContradictions(configuration: String, simulation: String, line: Int, says: String) throws {
        let directory = NSTemporaryDirectory() + "recoverydeck-simulation-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/recoverydeck.conf"
        let simulationPath = directory + "/simulation.conf"
        try ("database = \(directory)/recoverydeck.db\ncontrol_socket = \(directory)/control.sock\n" + configuration)
            .write(toFile: path, atomically: true, encoding: .utf8)
        try simulation.write(toFile: simulationPath, atomically: true, encoding: .utf8)
        let box = try DaemonConfiguration.load(path: path, required: true)
        do {
            _ = try Simulation.load(path: simulationPath, for: box)
            Issue.record("accepted")
        } catch {
            #expect(error.description == "\(simulationPath):\(line): \(says)", "\(error)")
        }
        #expect(SimulatedDaemonCommandLine.main(["--check-config", "--config", path, "--simulation", simulationPath]) == 78)
        #expect(SimulatedDaemonCommandLine.main(["--config", path, "--simulation", simulationPath]) == 78)
        #expect(!FileManager.default.fileExists(atPath: directory + "/recoverydeck.db"), "nothing was touched")
    }

    @Test("adapter takes a controller name or a Bluetooth address; empty means the first powered controller")
    func adapterForms() throws {
        #expect(try DaemonConfiguration.parse("adapter = hci1\n", path: "x").adapter == "hci1")
        #expect(try DaemonConfiguration.parse("adapter = 00:1A:7D:DA:71:13\n", path: "x").adapter == "00:1A:7D:DA:71:13")
        #expect(try DaemonConfiguration.parse("adapter =\n", path: "x").adapter == nil)
    }

    @Test("A malformed adapter stops recoverydeckd with 78 (EX_CONFIG) naming the line, and --check-config says the same")
    func malformedAdapterIsAConfigurationError() throws {
        let directory = NSTemporaryDirectory() + "recoverydeck-adapter-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/recoverydeck.conf"
        try """
        database = \(directory)/recoverydeck.db
        control_socket = \(directory)/control.sock
        panel = simulated
        adapter = usb0
        """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(DaemonCommandLine.main(["--check-config", "--config", path]) == 78)
        #expect(DaemonCommandLine.main(["--config", path]) == 78)
        #expect(throws: DaemonConfiguration.Problem.self) { try DaemonConfiguration.load(path: path, required: true) }
        do { _ = try DaemonConfiguration.load(path: path, required: true) } catch {
            #expect(error.line == 4 && error.description.contains("adapter"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/recoverydeck.db"), "nothing was touched")
    }

    @Test("strap_address takes a Bluetooth address; empty means the strap recoverydeck pair stored")
    func strapAddressForms() throws {
        #expect(try DaemonConfiguration.parse("strap_address = A0:9E:1A:12:34:56\n", path: "x").strapAddress != nil)
        #expect(try DaemonConfiguration.parse("strap_address =\n", path: "x").strapAddress == nil)
    }

    @Test(
        "--check-config reads the panel script: an unreadable or malformed one is named with its file and line, exit 78",
        arguments: [
            (nil as String?, "cannot read"),
            ("t=0 key 1\nt=1s press 5\n", ":2: unknown action \"press\""),
            ("# a morning\nt=soon go\n", ":2: expected a time such as t=1000"),
        ])
    func panelScriptChecked(script: String?, says: String) throws {
        let directory = NSTemporaryDirectory() + "recoverydeck-script-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scriptPath = directory + "/presses.txt"
        if let script { try script.write(toFile: scriptPath, atomically: true, encoding: .utf8) }
        let path = directory + "/recoverydeck.conf"
        try """
        database = \(directory)/recoverydeck.db
        control_socket = \(directory)/control.sock
        panel = simulated
        strap = simulated
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let simulationPath = directory + "/simulation.conf"
        try "speed = 10\nclock = simulated\n\npanel_script = \(scriptPath)\n".write(
            toFile: simulationPath, atomically: true, encoding: .utf8)
        let arguments = ["--config", path, "--simulation", simulationPath]
        #expect(SimulatedDaemonCommandLine.main(["--check-config"] + arguments) == 78)
        #expect(SimulatedDaemonCommandLine.main(arguments) == 78)
        let box = try DaemonConfiguration.load(path: path, required: true)
        #expect(throws: DaemonConfiguration.Problem.self) { try Simulation.load(path: simulationPath, for: box) }
        do { _ = try Simulation.load(path: simulationPath, for: box) } catch {
            #expect(error.description.hasPrefix("\(simulationPath):4: panel_script: "), "\(error)")
            #expect(error.description.contains(scriptPath) && error.description.contains(says), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/recoverydeck.db"), "nothing was touched")
    }

    @Test("A readable, well-formed panel script passes --check-config")
    func goodPanelScriptPasses() throws {
        let directory = NSTemporaryDirectory() + "recoverydeck-script-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "t=0 key 1\nt=1s key # # submit\nt=2s go\n".write(
            toFile: directory + "/presses.txt", atomically: true, encoding: .utf8)
        let path = directory + "/recoverydeck.conf"
        try "panel = simulated\nstrap = simulated\n".write(toFile: path, atomically: true, encoding: .utf8)
        try "panel_script = \(directory)/presses.txt\n".write(
            toFile: directory + "/simulation.conf", atomically: true, encoding: .utf8)
        #expect(
            SimulatedDaemonCommandLine.main(["--check-config", "--config", path, "--simulation", directory + "/simulation.conf"])
                == 0)
    }

    @Test("recoverydeckd exits 78 (EX_CONFIG) on a bad file and 64 on a bad argument, touching nothing")
    func exitCodes() throws {
        let path = NSTemporaryDirectory() + "recoverydeck-bad-\(UUID().uuidString).conf"
        try "database = /nonexistent/never-created.db\nbogus line\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(DaemonCommandLine.main(["--config", path]) == 78)
        #expect(DaemonCommandLine.main(["--check-config", "--config", path]) == 78)
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/never-created.db"))
        #expect(DaemonCommandLine.main(["--config", path + ".missing"]) == 78)
        #expect(DaemonCommandLine.main(["--frobnicate"]) == 64)
    }

    @Test(
        "recoverydeckd refuses the simulated panel or strap in one sentence, exit 78, --check-config too, touching nothing; recoverydeckd-sim runs them",
        arguments: [
            ("panel = simulated\nstrap = bluetooth\n", "panel = simulated: the simulated panel runs only on a simulated box"),
            ("panel = gpio\nstrap = simulated\n", "strap = simulated: the virtual strap runs only on a simulated box"),
        ])
    func simulatedPartsRefusedByTheBox(parts: String, says: String) throws {
        let directory = NSTemporaryDirectory() + "recoverydeck-parts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/recoverydeck.conf"
        try "database = \(directory)/recoverydeck.db\ncontrol_socket = \(directory)/control.sock\n\(parts)".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(DaemonCommandLine.main(["--check-config", "--config", path]) == 78)
        #expect(DaemonCommandLine.main(["--config", path]) == 78)
        let configuration = try DaemonConfiguration.load(path: path, required: true)
        let refusal = Daemon.refusal(of: configuration, Daemon.Options())
        #expect(refusal?.exitCode == 78)
        #expect(refusal?.description.hasPrefix(says) == true, "\(String(describing: refusal))")
        #expect(!FileManager.default.fileExists(atPath: directory + "/recoverydeck.db"), "nothing was touched")
        // A simulated box hands the part in.
        #expect(SimulatedDaemonCommandLine.main(["--check-config", "--config", path]) == 0)
        var options = Daemon.Options()
        SimulatedBox(simulation: Simulation()).prepare(&options, for: configuration)
        #expect(Daemon.refusal(of: configuration, options) == nil)
    }
}

/// The daemon reads its configuration and panel script through Platform's one file reader.
struct DaemonFileReadingTests {
    @Test("a configuration file over 1 MiB is refused in one sentence; a missing one names its path and reason")
    func limitAndMissing() throws {
        let directory = NSTemporaryDirectory() + "recoverydeck-read-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let large = directory + "/large.conf"
        try String(repeating: "# a comment line of 32 bytes...\n", count: (1 << 20) / 32).write(
            toFile: large, atomically: true, encoding: .utf8)
        #expect(try Daemon.readFile(large).utf8.count == 1 << 20, "exactly the limit is read")
        try ("x" + String(repeating: "# a comment line of 32 bytes...\n", count: (1 << 20) / 32)).write(
            toFile: large, atomically: true, encoding: .utf8)
        let missing = directory + "/missing.conf"
        for (path, sentence) in [
            (large, "\(large) is larger than 1 MiB."), (missing, "cannot read \(missing): No such file or directory."),
        ] {
            do {
                _ = try Daemon.readFile(path)
                Issue.record("\(path) was read")
            } catch {
                #expect(error.description == sentence)
                #expect(error.exitCode == 78)
            }
        }
    }
}

import Foundation
import TestSupport
import Testing

/// The box's daemon holds only the product: the simulated box (its stepped and scaled clocks, the virtual strap,
/// the simulated panel, its chip and script, the simulation file, the press and advance requests) lives in the
/// `Simulation` module, which only the demo, `recoverydeckd-sim` and the tests link. Checked on the built binary's
/// symbols: Swift mangles every declaration of a module with its name's length and the name (`10Simulation`),
/// whatever its visibility.
struct ShippedDaemonTests {
    /// The built program `name` beside this test bundle in the build products directory (`swift build`, debug
    /// under `swift test`).
    static func program(_ name: String) throws -> String {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            directory = directory.deletingLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name) (run swift build)"])
    }

    /// What the program at `path` prints on standard output for `arguments` (it must exit 0).
    static func output(of path: String, _ arguments: [String]) throws -> String {
        let child = try Child(path, arguments, stdout: .pipe)
        let data = child.output!.readDataToEndOfFile()
        let status = try child.terminationStatus
        #expect(status == 0, "\(path) \(arguments) exited \(status)")
        return String(decoding: data, as: UTF8.self)
    }

    /// The symbols `nm` lists for the program at `path`.
    static func symbols(_ path: String) throws -> [Substring] {
        try output(of: "/usr/bin/nm", [path]).split(separator: "\n")
    }

    /// The names of the simulation's clocks, strap and panel. A name that repeats a word of the module's name
    /// (`SimulationRequest`) is mangled by reference to it (`0A7Request`), so only the module's mark finds it.
    static let simulationNames = [
        "SteppedClock", "ScaledClock", "VirtualStrap", "SimulatedPanel", "SimulatedChip", "PanelScript",
    ]

    /// The simulation's marks in a symbol: its module, and the names of its parts.
    static func isSimulation(_ symbol: Substring) -> Bool {
        (["10Simulation"] + simulationNames).contains { symbol.contains($0) }
    }

    @Test("recoverydeckd holds none of the simulation's symbols (its panel's neither); recoverydeckd-sim, built from the same code, does")
    func daemonHoldsNoSimulation() throws {
        let shipped = try Self.symbols(try Self.program("recoverydeckd"))
        #expect(shipped.count > 1000, "nm listed too few symbols to judge: \(shipped.count)")
        let found = shipped.filter(Self.isSimulation)
        #expect(found.isEmpty, "recoverydeckd holds the simulation: \(found.prefix(5))")
        // The check can fail: the simulated box's daemon carries the module and each name it looks for.
        let simulated = try Self.symbols(try Self.program("recoverydeckd-sim"))
        for name in ["10Simulation"] + Self.simulationNames {
            #expect(simulated.contains { $0.contains(name) }, "recoverydeckd-sim has no symbol with \(name)")
        }
    }
}

import BoxConfiguration
import Platform
import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeckd`'s command line, as a library function so tests can run it.
public enum DaemonCommandLine {
    public static let usage = """
        usage: recoverydeckd [--config PATH] [--simulation PATH]
               recoverydeckd --check-config [--config PATH] [--simulation PATH]
               recoverydeckd --print-config | --print-config-table | --print-simulation
               recoverydeckd --print-simulation-table | --print-light-table

        Runs the RecoveryDeck box: the panel, the strap, the morning session and the control socket.
        --config PATH          configuration file (default \(DaemonConfiguration.defaultPath); a missing
                               default file means all defaults)
        --simulation PATH      run a simulated box (recoverydeck demo, the tests): time, clock, virtual
                               strap and presses from this file; never on a real box
        --check-config         read the configuration (and simulation), report the first bad line, and exit
        --print-config         every configuration key with its default and meaning
        --print-config-table   the same as a Markdown table
        --print-simulation     every simulation key with its default and meaning
        --print-simulation-table  the same as a Markdown table
        --print-light-table    the panel's lights, codes and sounds as Markdown (deploy/LIGHTS.md)

        Exit status: 0 stopped cleanly, 1 could not start or its event loop failed, 64 usage,
        78 configuration error.
        """

    /// What each `--print-…` option prints (then the daemon exits 0, reading no file).
    static let printed: [String: @Sendable () -> String] = [
        "--print-light-table": { LightTable.markdown() },
        "--print-config": { DaemonConfiguration.documentedDefaults },
        "--print-config-table": { DaemonConfiguration.markdownTable },
        "--print-simulation": { Simulation.documentedDefaults },
        "--print-simulation-table": { Simulation.markdownTable },
    ]

    /// Runs the daemon for `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        // The daemon holds the morning's RR intervals and the database's pages in memory: a crash must not
        // leave them in a core dump, and no other process of the service user may trace it.
        ProcessIdentity.refuseCoreDumps()
        var configPath: String?
        var simulationPath: String?
        var explicitPath = false
        var checkOnly = false
        var index = 0
        /// The path after `--config` or `--simulation`, or nil when it is missing.
        func path(after option: String) -> String? {
            guard index + 1 < arguments.count else {
                fail("\(option) needs a path.")
                return nil
            }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h":
                print(usage)
                return 0
            case _ where printed[argument] != nil:
                print(printed[argument]!(), terminator: "")
                return 0
            case "--check-config":
                checkOnly = true
            case "--config":
                guard let given = path(after: argument) else { return 64 }
                configPath = given
                explicitPath = true
            case "--simulation":
                guard let given = path(after: argument) else { return 64 }
                simulationPath = given
            default:
                fail("unknown argument \"\(argument)\"; see recoverydeckd --help.")
                return 64
            }
            index += 1
        }
        let path = configPath ?? DaemonConfiguration.defaultPath
        let configuration: DaemonConfiguration
        var options = Daemon.Options()
        do {
            configuration = try DaemonConfiguration.load(path: path, required: explicitPath)
            if let simulationPath {
                options.simulation = try Simulation.load(path: simulationPath, for: configuration)
            }
        } catch {
            fail(error.description)
            return 78
        }
        if checkOnly {
            print(([path] + (simulationPath.map { [$0] } ?? [])).map { "\($0): ok" }.joined(separator: "\n"))
            return 0
        }
        do {
            let daemon = try Daemon(configuration: configuration, options: options)
            return daemon.run()
        } catch {
            fail(error.description)
            return error.exitCode
        }
    }

    static func fail(_ sentence: String) {
        Logger().error("recoverydeckd: \(sentence)")
    }
}

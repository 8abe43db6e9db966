import BoxConfiguration
import Platform
import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeckd`'s command line, as a library function so tests can run it.
public enum DaemonCommandLine {
    public static let usage = """
        usage: recoverydeckd [--config PATH]
               recoverydeckd --check-config [--config PATH]
               recoverydeckd --print-config | --print-config-table | --print-light-table

        Runs the RecoveryDeck box: the panel, the strap, the morning session and the control socket.
        --config PATH          configuration file (default \(DaemonConfiguration.defaultPath); a missing
                               default file means all defaults)
        --check-config         read the configuration, report the first bad line, and exit
        --print-config         every configuration key with its default and meaning
        --print-config-table   the same as a Markdown table
        --print-light-table    the panel's lights, codes and sounds as Markdown (deploy/LIGHTS.md)

        Exit status: 0 stopped cleanly, 1 could not start or its event loop failed, 64 usage,
        78 configuration error.
        """

    /// What each `--print-…` option prints (then the daemon exits 0, reading no file).
    public static let printed: [String: @Sendable () -> String] = [
        "--print-light-table": { LightTable.markdown() },
        "--print-config": { DaemonConfiguration.documentedDefaults },
        "--print-config-table": { DaemonConfiguration.markdownTable },
    ]

    /// What a daemon built on this command line adds to the box's (a simulated box's clock, strap and requests).
    public struct Variant {
        /// The program's name, in its messages.
        public var name: String
        public var usage: String
        public var printed: [String: @Sendable () -> String]
        /// Options beyond `--config` that take a path, and what each does with the configuration read:
        /// checked (the paths `--check-config` reports), then the options the daemon runs with.
        public var pathOptions: [String]
        public var prepare: ([String: String], DaemonConfiguration, inout Daemon.Options) throws(DaemonConfiguration.Problem) -> Void
        /// Called with the daemon made, before it runs.
        public var made: (Daemon) throws(DaemonError) -> Void

        public init(
            name: String, usage: String, printed: [String: @Sendable () -> String], pathOptions: [String],
            prepare: @escaping ([String: String], DaemonConfiguration, inout Daemon.Options) throws(DaemonConfiguration.Problem) -> Void,
            made: @escaping (Daemon) throws(DaemonError) -> Void
        ) {
            self.name = name
            self.usage = usage
            self.printed = printed
            self.pathOptions = pathOptions
            self.prepare = prepare
            self.made = made
        }

        /// The box: the kernel's clocks, the configured panel and strap, the control protocol's requests.
        public static var box: Variant {
            Variant(
                name: "recoverydeckd", usage: DaemonCommandLine.usage, printed: DaemonCommandLine.printed,
                pathOptions: [], prepare: { _, _, _ in }, made: { _ in })
        }
    }

    /// Runs the daemon for `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String], variant: Variant = .box) -> Int32 {
        // The daemon holds the morning's RR intervals and the database's pages in memory: a crash must not
        // leave them in a core dump, and no other process of the service user may trace it.
        ProcessIdentity.refuseCoreDumps()
        var configPath: String?
        var paths: [String: String] = [:]
        var explicitPath = false
        var checkOnly = false
        var index = 0
        /// The path after `--config` or a variant's path option, or nil when it is missing.
        func path(after option: String) -> String? {
            guard index + 1 < arguments.count else {
                fail("\(option) needs a path.", variant.name)
                return nil
            }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h":
                print(variant.usage)
                return 0
            case _ where variant.printed[argument] != nil:
                print(variant.printed[argument]!(), terminator: "")
                return 0
            case "--check-config":
                checkOnly = true
            case "--config":
                guard let given = path(after: argument) else { return 64 }
                configPath = given
                explicitPath = true
            case _ where variant.pathOptions.contains(argument):
                guard let given = path(after: argument) else { return 64 }
                paths[argument] = given
            default:
                fail("unknown argument \"\(argument)\"; see \(variant.name) --help.", variant.name)
                return 64
            }
            index += 1
        }
        let path = configPath ?? DaemonConfiguration.defaultPath
        let configuration: DaemonConfiguration
        var options = Daemon.Options()
        do {
            configuration = try DaemonConfiguration.load(path: path, required: explicitPath)
            try variant.prepare(paths, configuration, &options)
        } catch {
            fail(error.description, variant.name)
            return 78
        }
        // What the program cannot run (recoverydeckd: the simulated panel and strap) is refused by --check-config too.
        if let refusal = Daemon.refusal(of: configuration, options) {
            fail(refusal.description, variant.name)
            return refusal.exitCode
        }
        if checkOnly {
            let checked = [path] + variant.pathOptions.compactMap { paths[$0] }
            print(checked.map { "\($0): ok" }.joined(separator: "\n"))
            return 0
        }
        do {
            let daemon = try Daemon(configuration: configuration, options: options)
            try variant.made(daemon)
            return daemon.run()
        } catch {
            fail(error.description, variant.name)
            return error.exitCode
        }
    }

    static func fail(_ sentence: String, _ name: String = "recoverydeckd") {
        Logger().error("\(name): \(sentence)")
    }
}

import BoxConfiguration
import Platform
import RecoveryCore

/// How a simulated box runs, for `recoverydeck demo` and the tests: time faster than real time, a simulated
/// wall clock, the virtual strap's person and faults, a script of presses. None of it belongs on a real box,
/// so none of it is in `recoverydeck.conf`: it is a file of its own, in the same `key = value` form, handed to
/// the daemon as `recoverydeckd-sim --simulation FILE` (`recoverydeckd-sim --print-simulation` lists the keys).
/// Without one, the daemon runs in real time on the system clock.
public struct Simulation: Hashable, Sendable {
    public enum ClockKind: String, Hashable, Sendable { case system, simulated }

    /// Session time runs this many times faster than real time, with the virtual strap or a strap simulator
    /// running as fast (`h10sim --speed`). A real strap's heart does not speed up.
    public var speed = 1.0
    public var clock = ClockKind.system
    /// With `clock = simulated`: the local date and time at start; nil: now.
    public var clockStart: (date: LocalDate, minute: MinuteOfDay)?
    public var simulatedSeed: UInt64 = 10
    /// The virtual strap's person's first day (`recoverydeck demo` seeds the same person's earlier mornings).
    public var simulatedFirstDate = LocalDate(year: 2026, month: 1, day: 1)!
    public var simulatedHROnly = false
    /// Seconds after connecting, and for how long, the virtual strap drops out.
    public var simulatedDropout: (atSeconds: Double, forSeconds: Double)?
    public var simulatedArtifacts = 0.0
    public var simulatedConnectSeconds = 2.0
    /// A panel script (simulated panel): presses at times from the daemon's start.
    public var panelScript: String?
    /// The clock guard is told the clock is not synchronised and this boot began at this second since the epoch
    /// (what the kernel would say of an unset clock); nil: a stepped clock is trusted, a scaled one asks the kernel.
    public var unsynchronisedBoot: Int64?

    public init() {}

    public static func == (a: Simulation, b: Simulation) -> Bool { a.rendered == b.rendered }
    public func hash(into hasher: inout Hasher) { hasher.combine(rendered) }

    public typealias Problem = DaemonConfiguration.Problem
    public typealias ValueError = DaemonConfiguration.ValueError

    /// Parses `text` (the file at `path`, for messages).
    public static func parse(_ text: String, path: String) throws(Problem) -> Simulation {
        try DaemonConfiguration.parse(
            text, path: path, keys: keys, into: Simulation(), printedBy: "recoverydeckd-sim --print-simulation"
        ) { _ throws(ValueError) in }.0
    }

    /// Reads and parses the simulation file at `path` and the panel script it names, and checks it against the
    /// box it simulates: a simulated clock needs the virtual strap (a real strap's beats come in real time), a
    /// panel script the simulated panel. The problem names the simulation file's line.
    public static func load(path: String, for configuration: DaemonConfiguration) throws(Problem) -> Simulation {
        let (simulation, lines) = try DaemonConfiguration.parse(
            try DaemonConfiguration.readText(path), path: path, keys: keys, into: Simulation(),
            printedBy: "recoverydeckd-sim --print-simulation"
        ) { (s) throws(ValueError) in try s.validate(for: configuration) }
        do { _ = try simulation.loadPanelScript() } catch {
            throw Problem(path: path, line: error.key.flatMap { lines[$0] }, reason: error.reason)
        }
        return simulation
    }

    /// What this simulation needs of the box's configuration.
    public func validate(for configuration: DaemonConfiguration) throws(ValueError) {
        if clock == .simulated && configuration.strap != .simulated {
            throw ValueError(reason: "clock = simulated needs strap = simulated in the configuration", key: "clock")
        }
        if panelScript != nil && configuration.panel != .simulated {
            throw ValueError(
                reason: "panel_script needs panel = simulated in the configuration", key: "panel_script")
        }
    }

    /// The panel script the simulation names, read and parsed; a file that cannot be read or a bad line in it is
    /// one sentence naming the script's path and line.
    public func loadPanelScript() throws(ValueError) -> PanelScript? {
        guard let path = panelScript else { return nil }
        let text: String
        do { text = try DaemonConfiguration.readFile(path) } catch {
            throw ValueError(reason: "panel_script: \(error.reason)", key: "panel_script")
        }
        do {
            return try PanelScript(parsing: text)
        } catch {
            throw ValueError(reason: "panel_script: \(path):\(error.line): \(error.reason)", key: "panel_script")
        }
    }

    /// The simulation as a file would state it (every key, defaults included).
    public var rendered: String {
        Simulation.keys.map { "\($0.name) = \($0.render(self))" }.joined(separator: "\n")
    }

    /// The documented file: every key with its default and meaning (`recoverydeckd-sim --print-simulation`).
    public static var documentedDefaults: String {
        DaemonConfiguration.documented(
            keys, defaults: Simulation(),
            heading: [
                "# recoverydeckd-sim --simulation FILE: a simulated box's time, clock, virtual strap and presses (the demo",
                "# and the tests; never on a real box). key = value; # starts a comment; shown with the defaults.",
            ])
    }

    /// A Markdown table of the keys and their defaults, for docs/daemon.md.
    public static var markdownTable: String { DaemonConfiguration.markdownTable(keys, defaults: Simulation()) }

    /// Every key, in the order `--print-simulation` lists them.
    public static var keys: [ConfigurationKey<Simulation>] {
        [
            .decimal(
                "speed",
                "session time runs this many times faster; a real strap needs 1 (h10sim --speed N needs N)",
                \.speed, 1...1000, use: "a number from 1 to 1000"),
            .choice(
                "clock", "`system`, or `simulated` (starts at clock_start, moved by the control socket)", \.clock
            ),
            .optional(
                "clock_start", "simulated clock: local start `YYYY-MM-DD HH:MM`", \.clockStart, use: "YYYY-MM-DD HH:MM",
                parse: { v in
                    let parts = v.split(separator: " ", omittingEmptySubsequences: true)
                    guard parts.count == 2, let d = LocalDate(iso: parts[0]), let m = MinuteOfDay(hhmm: parts[1]) else {
                        return nil
                    }
                    return (d, m)
                }, render: { "\($0.date.iso) \($0.minute)" }),
            ConfigurationKey(
                name: "simulated_seed", help: "the virtual strap's synthetic person",
                apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                    guard let s = UInt64(v) else { throw DaemonConfiguration.ValueError(reason: "use a whole number") }
                    c.simulatedSeed = s
                }, render: { String($0.simulatedSeed) }),
            ConfigurationKey(
                name: "simulated_first_date", help: "the virtual strap's person's first day `YYYY-MM-DD`",
                apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                    guard let d = LocalDate(iso: v) else {
                        throw DaemonConfiguration.ValueError(reason: "use YYYY-MM-DD, not \"\(v)\"")
                    }
                    c.simulatedFirstDate = d
                }, render: { $0.simulatedFirstDate.iso }),
            .flag("simulated_hr_only", "the virtual strap sends heart rate without RR", \.simulatedHROnly),
            .optional(
                "simulated_dropout", "the virtual strap drops out `AT:FOR` seconds after connecting",
                \.simulatedDropout, use: "AT:FOR in seconds, such as 150:20",
                parse: { v in
                    let parts = v.split(separator: ":")
                    guard parts.count == 2, let at = Double(parts[0]), let span = Double(parts[1]), at >= 0, span > 0
                    else { return nil }
                    return (at, span)
                },
                render: { "\(DaemonConfiguration.number($0.atSeconds)):\(DaemonConfiguration.number($0.forSeconds))" }),
            .decimal(
                "simulated_artifacts", "share of the virtual strap's beats made artifacts (0–0.5)",
                \.simulatedArtifacts, 0...0.5, use: "a number from 0 to 0.5"),
            .decimal(
                "simulated_connect_seconds", "how long the virtual strap takes to connect", \.simulatedConnectSeconds,
                0...120, use: "seconds from 0 to 120"),
            .optionalText(
                "panel_script", "simulated panel: a script of presses (times from the daemon's start)", \.panelScript),
            .optional(
                "unsynchronised_boot",
                "the clock guard hears that the clock is not synchronised and this boot began at this epoch second",
                \.unsynchronisedBoot, use: "seconds since the epoch", parse: { Int64($0) }, render: { String($0) }),
        ]
    }
}

extension Simulation.ClockKind: CaseIterableName { package static var names: [String] { ["system", "simulated"] } }

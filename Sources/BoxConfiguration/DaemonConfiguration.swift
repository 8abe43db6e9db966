import ControlProtocol
import Panel
import Platform
import RecoveryCore

/// `recoverydeckd`'s configuration file: `key = value` lines, `#` comments, blank lines ignored; every key
/// optional with the documented default (`DaemonConfiguration.keys`, printed by
/// `recoverydeckd --print-config`). A line that is not a known key with a valid value is named with its
/// number, and the daemon exits 78 (EX_CONFIG) having touched nothing.
public struct DaemonConfiguration: Hashable, Sendable {
    public enum PanelKind: String, Hashable, Sendable { case gpio, simulated }
    public enum StrapKind: String, Hashable, Sendable { case bluetooth, simulated }
    public enum ClockKind: String, Hashable, Sendable { case system, simulated }

    public static let defaultPath = "/etc/recoverydeck/recoverydeck.conf"

    public var database = "/var/lib/recoverydeck/recoverydeck.db"
    public var controlSocket = ControlClient.defaultPath
    /// Besides root, members of this group may use the control socket.
    public var controlGroup = "recoverydeck"
    public var panel = PanelKind.gpio
    public var strap = StrapKind.bluetooth
    /// `hciN`, or nil for the first powered controller.
    public var adapter: String?
    /// nil: the strap paired with `recoverydeck pair` (the store's setting).
    public var strapAddress: String?
    /// `public` or `random`; nil: as paired.
    public var strapAddressType: String?
    public var pins = PinMap.standard
    public var reminderEnabled = true
    /// nil: the store's `reminder_time` setting, else 06:30.
    public var reminderTime: MinuteOfDay?
    public var reminderWindowEnd = MinuteOfDay(hour: 10, minute: 0)!
    public var reminderBuzzer = false
    /// All sounds; off makes the box silent.
    public var buzzer = true
    /// The keypad's habit keys in order; nil: the store's habit list.
    public var habits: [String]?
    public var logLevel = LogLevel.info

    // Simulation: the demo, the torture and soak tests, the VM test.
    /// Session time runs this many times faster than real time: the demo and the tests, with the virtual
    /// strap or a strap simulator running as fast (`h10sim --speed`). 1 on a real box.
    public var speed = 1.0
    public var clock = ClockKind.system
    /// With `clock = simulated`: the local date and time at start.
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

    public init() {}

    public static func == (a: DaemonConfiguration, b: DaemonConfiguration) -> Bool {
        a.rendered == b.rendered
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(rendered) }

    /// One configuration error: the line, and what is wrong with it.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var line: Int?
        public var reason: String
        public var description: String {
            if let line { return "\(path):\(line): \(reason)" }
            return "\(path): \(reason)"
        }
    }

    /// Parses `text` (the file at `path`, for messages).
    public static func parse(_ text: String, path: String) throws(Problem) -> DaemonConfiguration {
        try parseNamingLines(text, path: path).configuration
    }

    /// Parses `text`, and says on which line each key was set (for problems found after parsing).
    public static func parseNamingLines(_ text: String, path: String) throws(Problem) -> (
        configuration: DaemonConfiguration, lines: [String: Int]
    ) {
        var configuration = DaemonConfiguration()
        var seen: [String: Int] = [:]
        for line in lines(of: text) {
            let number = line.number
            guard let key = line.key else {
                throw Problem(path: path, line: number, reason: "expected \"key = value\", found \"\(line.text)\"")
            }
            let value = line.value
            guard let spec = keys.first(where: { $0.name == key }) else {
                throw Problem(
                    path: path, line: number, reason: "unknown key \"\(key)\" (see recoverydeckd --print-config)")
            }
            guard seen[key] == nil else {
                throw Problem(path: path, line: number, reason: "\"\(key)\" is set twice")
            }
            seen[key] = number
            do {
                try spec.apply(value, &configuration)
            } catch {
                throw Problem(path: path, line: number, reason: "\(key): \(error.reason)")
            }
        }
        do {
            try configuration.validate()
        } catch {
            throw Problem(path: path, line: error.key.flatMap { seen[$0] }, reason: error.reason)
        }
        return (configuration, seen)
    }

    /// One line of a configuration text that is neither blank nor a comment: its number, its text, and
    /// its key and value (both trimmed) when it has an `=`.
    public struct Line: Hashable, Sendable {
        public var number: Int
        public var text: String
        public var key: String?
        public var value: String
    }

    /// The significant lines of `text`: `#` starts a comment, blank lines are skipped. The daemon's
    /// parser and `recoverydeck doctor` both read the file through this.
    public static func lines(of text: String) -> [Line] {
        var result: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line =
                raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let trimmed = line.trimmed
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                result.append(Line(number: index + 1, text: trimmed, key: nil, value: ""))
                continue
            }
            result.append(
                Line(
                    number: index + 1, text: trimmed, key: String(trimmed[..<equals]).trimmed,
                    value: String(trimmed[trimmed.index(after: equals)...]).trimmed))
        }
        return result
    }

    /// What is wrong with a value; `key`, when one key is at fault, names the line a problem points at.
    public struct ValueError: Error {
        public var reason: String
        public var key: String? = nil

        public init(reason: String, key: String? = nil) {
            self.reason = reason
            self.key = key
        }
    }

    public func validate() throws(ValueError) {
        do { try pins.validate() } catch { throw ValueError(reason: "pins: \(error)") }
        if let start = reminderTime, start >= reminderWindowEnd {
            throw ValueError(
                reason: "reminder_time \(start) must come before reminder_window_end \(reminderWindowEnd)",
                key: "reminder_time")
        }
        if clock == .simulated && strap != .simulated {
            throw ValueError(reason: "clock = simulated needs strap = simulated", key: "clock")
        }
        if panelScript != nil && panel != .simulated {
            throw ValueError(reason: "panel_script needs panel = simulated", key: "panel_script")
        }
    }

    /// The panel script the configuration names, read and parsed; a file that cannot be read or a bad line
    /// in it is one sentence naming the script's path and line.
    public func loadPanelScript() throws(ValueError) -> PanelScript? {
        guard let path = panelScript else { return nil }
        let text: String
        do { text = try DaemonConfiguration.readFile(path) } catch {
            throw ValueError(reason: "panel_script: \(error.reason)", key: "panel_script")
        }
        do {
            return try PanelScript(parsing: text)
        } catch {
            if case .invalidScript(let line, let reason) = error {
                throw ValueError(reason: "panel_script: \(path):\(line): \(reason)", key: "panel_script")
            }
            throw ValueError(reason: "panel_script: \(path): \(error)", key: "panel_script")
        }
    }

    /// The configuration as a file would state it (every key, defaults included).
    public var rendered: String {
        DaemonConfiguration.keys.map { "\($0.name) = \($0.render(self))" }.joined(separator: "\n")
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}

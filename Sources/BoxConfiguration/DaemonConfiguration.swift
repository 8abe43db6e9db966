import ControlProtocol
import Panel
import Platform
import RecoveryCore

/// `recoverydeckd`'s configuration file: `key = value` lines, `#` comments, blank lines ignored; every key
/// optional with the documented default (`DaemonConfiguration.keys`, printed by
/// `recoverydeckd --print-config`). A line that is not a known key with a valid value is named with its
/// number, and the daemon exits 78 (EX_CONFIG) having touched nothing.
public struct DaemonConfiguration: Hashable, Sendable {
    /// The panel and strap the daemon runs. A box runs `gpio` and `bluetooth` only; `simulated` names the parts a
    /// simulated box hands the daemon (the demo, recoverydeckd-sim), which the box's daemon refuses with exit 78.
    public enum PanelKind: String, Hashable, Sendable { case gpio, simulated }
    public enum StrapKind: String, Hashable, Sendable { case bluetooth, simulated }

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

        package init(path: String, line: Int?, reason: String) {
            self.path = path
            self.line = line
            self.reason = reason
        }

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
        let (configuration, lines) = try parse(
            text, path: path, keys: keys, into: DaemonConfiguration(), printedBy: "recoverydeckd --print-config"
        ) { (c) throws(ValueError) in try c.validate() }
        return (configuration, lines)
    }

    /// Reads `text` as `key = value` lines of `keys` into `start`, then `validate`s the whole: the first bad line
    /// is one problem naming it (`printedBy` names the command that lists the keys).
    package static func parse<Settings>(
        _ text: String, path: String, keys: [ConfigurationKey<Settings>], into start: Settings, printedBy: String,
        validate: (Settings) throws(ValueError) -> Void
    ) throws(Problem) -> (Settings, [String: Int]) {
        var settings = start
        var seen: [String: Int] = [:]
        for line in lines(of: text) {
            let number = line.number
            guard let key = line.key else {
                throw Problem(path: path, line: number, reason: "expected \"key = value\", found \"\(line.text)\"")
            }
            guard let spec = keys.first(where: { $0.name == key }) else {
                throw Problem(path: path, line: number, reason: "unknown key \"\(key)\" (see \(printedBy))")
            }
            guard seen[key] == nil else {
                throw Problem(path: path, line: number, reason: "\"\(key)\" is set twice")
            }
            seen[key] = number
            do {
                try spec.apply(line.value, &settings)
            } catch {
                throw Problem(path: path, line: number, reason: "\(key): \(error.reason)")
            }
        }
        do {
            try validate(settings)
        } catch {
            throw Problem(path: path, line: error.key.flatMap { seen[$0] }, reason: error.reason)
        }
        return (settings, seen)
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

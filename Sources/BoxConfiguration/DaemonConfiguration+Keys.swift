import BlueZ
import HeartRateProtocol
import Panel
import Platform
import RecoveryCore

/// One key of a `key = value` file (`recoverydeck.conf`, a simulation file): its name, what it means, how to
/// read and write its value in the `Settings` it belongs to.
public struct ConfigurationKey<Settings> {
    public let name: String
    public let help: String
    public let apply: (String, inout Settings) throws(DaemonConfiguration.ValueError) -> Void
    public let render: (Settings) -> String

    package init(
        name: String, help: String, apply: @escaping (String, inout Settings) throws(DaemonConfiguration.ValueError) -> Void,
        render: @escaping (Settings) -> String
    ) {
        self.name = name
        self.help = help
        self.apply = apply
        self.render = render
    }
}

extension DaemonConfiguration {

    /// Every key, in the order `--print-config` and the README list them.
    public static var keys: [ConfigurationKey<DaemonConfiguration>] {
        [
            .text("database", "the SQLite database", \.database),
            .text("control_socket", "the control socket `recoverydeck measure/cancel/watch` talk to", \.controlSocket),
            .text("control_group", "group allowed on the control socket besides root", \.controlGroup),
            .choice(
                "panel", "`gpio`, the real panel (`simulated`: only on a simulated box, recoverydeckd-sim)", \.panel),
            .choice(
                "strap", "`bluetooth`, the paired H10 (`simulated`: only on a simulated box, recoverydeckd-sim)", \.strap),
            .optionalText(
                "adapter", "Bluetooth controller `hciN` or its address; empty: the first powered one", \.adapter,
                use: "a controller name such as hci0 or its address such as 00:1A:7D:DA:71:13"
            ) { Controller.index(named: $0) != nil || BluetoothAddress($0) != nil },
            .optionalText(
                "strap_address", "strap address; empty: the one `recoverydeck pair` stored", \.strapAddress,
                use: "a Bluetooth address such as A0:9E:1A:12:34:56"
            ) { BluetoothAddress($0) != nil },
            .optionalText(
                "strap_address_type", "`public` or `random`; empty: as paired", \.strapAddressType,
                use: "public or random"
            ) { BluetoothAddressType(word: $0) != nil },
            ConfigurationKey(
                name: "chip_label", help: "GPIO chip labels to look for, first found wins (never a chip number)",
                apply: { (v, c) throws(ValueError) in
                    let labels = list(v)
                    guard !labels.isEmpty else { throw ValueError(reason: "name at least one chip label") }
                    c.pins.chipLabels = labels
                }, render: { $0.pins.chipLabels.joined(separator: ", ") }),
            .pin("pin_go", "GO button (to ground, pull-up)", \.pins.goButton),
            .pins("pin_keypad_rows", "keypad rows (outputs)", 4, \.pins.keypadRows),
            .pins("pin_keypad_columns", "keypad columns (inputs, pull-up)", 3, \.pins.keypadColumns),
            .pin("pin_red", "red lamp", \.pins.red),
            .pin("pin_yellow", "yellow lamp", \.pins.yellow),
            .pin("pin_green", "green lamp", \.pins.green),
            .pin("pin_blue", "blue status lamp", \.pins.blue),
            .pin("pin_buzzer", "active buzzer", \.pins.buzzer),
            .flag("buzzer", "every sound; `off` silences the box", \.buzzer),
            .flag("reminder", "the morning reminder (blue slow blink)", \.reminderEnabled),
            .optional(
                "reminder_time", "when the reminder starts; empty: the store's setting, else 06:30", \.reminderTime,
                use: "HH:MM", parse: { MinuteOfDay(hhmm: $0) }, render: { $0.description }),
            ConfigurationKey(
                name: "reminder_window_end", help: "the reminder never shows at or after this time",
                apply: { (v, c) throws(ValueError) in
                    guard let m = MinuteOfDay(hhmm: v) else { throw ValueError(reason: "use HH:MM, not \"\(v)\"") }
                    c.reminderWindowEnd = m
                }, render: { $0.reminderWindowEnd.description }),
            .flag("reminder_buzzer", "the reminder also beeps once when it starts", \.reminderBuzzer),
            ConfigurationKey(
                name: "habits", help: "keypad habit keys 1–9 in order; empty: the store's habit list",
                apply: { (v, c) throws(ValueError) in
                    let names = list(v)
                    guard names.count <= 9 else { throw ValueError(reason: "at most nine habits have keys") }
                    for name in names where !name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) {
                        throw ValueError(reason: "\"\(name)\" is not a habit name (lower-case letters, digits, -)")
                    }
                    c.habits = names.isEmpty ? nil : names
                }, render: { $0.habits?.joined(separator: ", ") ?? "" }),
            ConfigurationKey(
                name: "log_level", help: "journal verbosity: error, warning, notice, info, debug",
                apply: { (v, c) throws(ValueError) in
                    guard let level = LogLevel(name: v) else {
                        throw ValueError(
                            reason: "use \(LogLevel.allCases.map(\.name).joined(separator: " or ")), not \"\(v)\"")
                    }
                    c.logLevel = level
                }, render: { $0.logLevel.name }),
        ]
    }

    /// The comma-separated items of a value, trimmed, empty ones left out.
    public static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
    }

    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The documented file: every key with its default and meaning (`recoverydeckd --print-config`).
    public static var documentedDefaults: String {
        documented(
            keys, defaults: DaemonConfiguration(),
            heading: [
                "# /etc/recoverydeck/recoverydeck.conf: recoverydeckd's configuration.",
                "# key = value; # starts a comment; every key is optional and shown with its default.",
            ])
    }

    /// A file of `keys`, each with its meaning as a comment and its value in `defaults`, after `heading`.
    package static func documented<Settings>(_ keys: [ConfigurationKey<Settings>], defaults: Settings, heading: [String])
        -> String
    {
        var lines = heading + [""]
        for key in keys {
            lines.append("# \(key.help)")
            lines.append("\(key.name) = \(key.render(defaults))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Markdown table of the keys and their defaults, for docs/daemon.md.
    public static var markdownTable: String { markdownTable(keys, defaults: DaemonConfiguration()) }

    /// A Markdown table of `keys` with their values in `defaults`.
    package static func markdownTable<Settings>(_ keys: [ConfigurationKey<Settings>], defaults: Settings) -> String {
        var lines = ["| key | default | meaning |", "|---|---|---|"]
        for key in keys {
            let value = key.render(defaults)
            lines.append("| `\(key.name)` | \(value.isEmpty ? "(empty)" : "`\(value)`") | \(key.help) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The names a choice key accepts.
package protocol CaseIterableName {
    static var names: [String] { get }
}

extension DaemonConfiguration.PanelKind: CaseIterableName { package static var names: [String] { ["gpio", "simulated"] } }
extension DaemonConfiguration.StrapKind: CaseIterableName { package static var names: [String] { ["bluetooth", "simulated"] } }

/// The kinds of key both files use.
extension ConfigurationKey {
    package static func text(_ name: String, _ help: String, _ path: WritableKeyPath<Settings, String>)
        -> ConfigurationKey<Settings>
    {
        ConfigurationKey<Settings>(
            name: name, help: help,
            apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                guard !v.isEmpty else { throw DaemonConfiguration.ValueError(reason: "needs a value") }
                c[keyPath: path] = v
            }, render: { $0[keyPath: path] })
    }

    /// A key whose empty value means nil; a value `valid` refuses is answered with "use \(use)".
    package static func optionalText(
        _ name: String, _ help: String, _ path: WritableKeyPath<Settings, String?>, use: String = "",
        valid: @escaping (String) -> Bool = { _ in true }
    ) -> ConfigurationKey<Settings> {
        ConfigurationKey<Settings>(
            name: name, help: help,
            apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                guard v.isEmpty || valid(v) else { throw DaemonConfiguration.ValueError(reason: "use \(use), not \"\(v)\"") }
                c[keyPath: path] = v.isEmpty ? nil : v
            }, render: { $0[keyPath: path] ?? "" })
    }

    /// A key whose empty value means nil, and any other value is what `parse` makes of it; a value it refuses is
    /// answered with "use \(use), not …".
    package static func optional<Value>(
        _ name: String, _ help: String, _ path: WritableKeyPath<Settings, Value?>, use: String,
        parse: @escaping (String) -> Value?, render: @escaping (Value) -> String
    ) -> ConfigurationKey<Settings> {
        ConfigurationKey<Settings>(
            name: name, help: help,
            apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                if v.isEmpty {
                    c[keyPath: path] = nil
                    return
                }
                guard let value = parse(v) else {
                    throw DaemonConfiguration.ValueError(reason: "use \(use), not \"\(v)\"")
                }
                c[keyPath: path] = value
            }, render: { $0[keyPath: path].map(render) ?? "" })
    }

    /// A number in `range`; anything else is answered with "use \(use)".
    package static func decimal(
        _ name: String, _ help: String, _ path: WritableKeyPath<Settings, Double>,
        _ range: ClosedRange<Double>, use: String
    ) -> ConfigurationKey<Settings> {
        ConfigurationKey<Settings>(
            name: name, help: help,
            apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                guard let x = Double(v), range.contains(x) else { throw DaemonConfiguration.ValueError(reason: "use \(use)") }
                c[keyPath: path] = x
            }, render: { DaemonConfiguration.number($0[keyPath: path]) })
    }

    package static func flag(_ name: String, _ help: String, _ path: WritableKeyPath<Settings, Bool>)
        -> ConfigurationKey<Settings>
    {
        ConfigurationKey<Settings>(
            name: name, help: help,
            apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                switch v {
                case "on", "yes", "true": c[keyPath: path] = true
                case "off", "no", "false": c[keyPath: path] = false
                default: throw DaemonConfiguration.ValueError(reason: "use on or off, not \"\(v)\"")
                }
            }, render: { $0[keyPath: path] ? "on" : "off" })
    }

    package static func choice<T: RawRepresentable & CaseIterableName>(
        _ name: String, _ help: String, _ path: WritableKeyPath<Settings, T>
    ) -> ConfigurationKey<Settings> where T.RawValue == String {
        ConfigurationKey<Settings>(
            name: name, help: help,
            apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                guard let value = T(rawValue: v) else {
                    throw DaemonConfiguration.ValueError(reason: "use \(T.names.joined(separator: " or ")), not \"\(v)\"")
                }
                c[keyPath: path] = value
            }, render: { $0[keyPath: path].rawValue })
    }

    static func pin(_ name: String, _ help: String, _ path: WritableKeyPath<Settings, UInt32>)
        -> ConfigurationKey<Settings>
    {
        ConfigurationKey<Settings>(
            name: name, help: "GPIO line of the \(help)",
            apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                guard let n = UInt32(v), n < 512 else {
                    throw DaemonConfiguration.ValueError(reason: "use a GPIO line number, not \"\(v)\"")
                }
                c[keyPath: path] = n
            }, render: { String($0[keyPath: path]) })
    }

    static func pins(
        _ name: String, _ help: String, _ count: Int, _ path: WritableKeyPath<Settings, [UInt32]>
    ) -> ConfigurationKey<Settings> {
        ConfigurationKey<Settings>(
            name: name, help: "GPIO lines of the \(help), \(count) of them",
            apply: { (v, c) throws(DaemonConfiguration.ValueError) in
                let numbers = DaemonConfiguration.list(v).map { UInt32($0) }
                guard numbers.count == count, numbers.allSatisfy({ $0 != nil && $0! < 512 }) else {
                    throw DaemonConfiguration.ValueError(reason: "give \(count) GPIO line numbers separated by commas")
                }
                c[keyPath: path] = numbers.map { $0! }
            }, render: { $0[keyPath: path].map(String.init).joined(separator: ", ") })
    }
}

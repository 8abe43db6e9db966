import BoxConfiguration
import Panel

/// What doctor needs from the box's configuration file (`DaemonConfiguration.defaultPath`, recoverydeck.conf(5)),
/// read by the daemon's own parser, so doctor and the daemon cannot disagree about a value. A file the daemon
/// would refuse is one sentence (`problem`: doctor fails it, since the daemon would not start with it) and the
/// defaults (`PinMap.standard`, DESIGN §2) stand in for the rest of the checks.
struct BoxSettings {
    let configuration: DaemonConfiguration
    /// Why the daemon would refuse the file, with its line; nil when it reads.
    let problem: String?

    init(text: String) {
        do {
            configuration = try DaemonConfiguration.parse(text, path: DaemonConfiguration.defaultPath)
            problem = nil
        } catch {
            configuration = DaemonConfiguration()
            problem = error.description
        }
    }

    /// The configured adapter (hciN or an address), if any.
    var adapter: String? { configuration.adapter }

    /// The chip labels to look for, first found wins.
    var chipLabels: [String] { configuration.pins.chipLabels }

    /// Every configured line with its role.
    var gpioLines: [DoctorFacts.GPIOLine] {
        var lines: [DoctorFacts.GPIOLine] = []
        // The consumer names are the ones the panel requests its lines with.
        func single(_ key: String, _ offset: UInt32, _ consumer: String) {
            lines.append(.init(role: key, offset: Int(offset), consumer: nil, panelConsumer: consumer))
        }
        func list(_ key: String, _ offsets: [UInt32], _ consumer: String) {
            for (i, o) in offsets.enumerated() {
                lines.append(
                    .init(role: "\(key)[\(i + 1)]", offset: Int(o), consumer: nil, panelConsumer: "\(consumer)\(i + 1)"))
            }
        }
        let pins = configuration.pins
        single("pin_go", pins.goButton, Panel.goConsumer)
        list("pin_keypad_rows", pins.keypadRows, Panel.keypadRowConsumer)
        list("pin_keypad_columns", pins.keypadColumns, Panel.keypadColumnConsumer)
        single("pin_red", pins.red, PanelOutput.red.rawValue)
        single("pin_yellow", pins.yellow, PanelOutput.yellow.rawValue)
        single("pin_green", pins.green, PanelOutput.green.rawValue)
        single("pin_blue", pins.blue, PanelOutput.blue.rawValue)
        single("pin_buzzer", pins.buzzer, PanelOutput.buzzer.rawValue)
        return lines
    }
}

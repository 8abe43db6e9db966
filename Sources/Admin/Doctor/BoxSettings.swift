import BoxConfiguration
import Panel

/// The few settings doctor needs from the box's configuration file (`DaemonConfiguration.defaultPath`,
/// read line by line as the daemon reads it; recoverydeck.conf(5)), with the panel's own defaults
/// (`PinMap.standard`, DESIGN §2) for absent or empty keys.
struct BoxSettings {
    private var values: [String: String] = [:]

    init(text: String) {
        // The daemon's own reading of the lines; doctor takes what it can use rather than refusing the file.
        for line in DaemonConfiguration.lines(of: text) {
            guard let key = line.key, !line.value.isEmpty else { continue }
            values[key] = line.value
        }
    }

    func value(_ key: String) -> String? { values[key] }

    /// The chip labels to look for, first found wins.
    var chipLabels: [String] {
        value("chip_label").map(DaemonConfiguration.list)
            ?? PinMap.standard.chipLabels
    }

    /// Every configured line with its role, defaults where the file is silent.
    var gpioLines: [DoctorFacts.GPIOLine] {
        var lines: [DoctorFacts.GPIOLine] = []
        // The consumer names are the ones the panel requests its lines with.
        func single(_ key: String, _ fallback: UInt32, _ consumer: String) {
            let offset = value(key).flatMap { Int($0) } ?? Int(fallback)
            lines.append(.init(role: key, offset: offset, consumer: nil, panelConsumer: consumer))
        }
        func list(_ key: String, _ fallback: [UInt32], _ consumer: String) {
            let offsets =
                value(key).map { DaemonConfiguration.list($0).compactMap { Int($0) } } ?? fallback.map { Int($0) }
            for (i, o) in offsets.enumerated() {
                lines.append(
                    .init(role: "\(key)[\(i + 1)]", offset: o, consumer: nil, panelConsumer: "\(consumer)\(i + 1)"))
            }
        }
        let pins = PinMap.standard
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

import Panel

/// The few settings doctor needs from /etc/recoverydeck/recoverydeck.conf (`key = value` lines, `#`
/// comments; recoverydeck.conf(5)), with the panel's own defaults (`PinMap.standard`, DESIGN §2) for
/// absent or empty keys.
struct BoxSettings {
    private var values: [String: String] = [:]

    init(text: String) {
        for raw in text.split(separator: "\n") {
            let line = (raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmed
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[1].trimmed.isEmpty else { continue }
            values[parts[0].trimmed] = parts[1].trimmed
        }
    }

    func value(_ key: String) -> String? { values[key] }

    /// The chip labels to look for, first found wins.
    var chipLabels: [String] {
        value("chip_label").map { $0.split(separator: ",").map { $0.trimmed }.filter { !$0.isEmpty } }
            ?? PinMap.standard.chipLabels
    }

    /// Every configured line with its role, defaults where the file is silent.
    var gpioLines: [DoctorFacts.GPIOLine] {
        var lines: [DoctorFacts.GPIOLine] = []
        // The consumer names are the ones the panel requests its lines with (Panel/Panel.swift).
        func single(_ key: String, _ fallback: UInt32, _ consumer: String) {
            let offset = value(key).flatMap { Int($0) } ?? Int(fallback)
            lines.append(.init(role: key, offset: offset, consumer: nil, panelConsumer: consumer))
        }
        func list(_ key: String, _ fallback: [UInt32], _ consumer: String) {
            let offsets =
                value(key).map { $0.split(separator: ",").compactMap { Int($0.trimmed) } } ?? fallback.map { Int($0) }
            for (i, o) in offsets.enumerated() {
                lines.append(
                    .init(role: "\(key)[\(i + 1)]", offset: o, consumer: nil, panelConsumer: "\(consumer)\(i + 1)"))
            }
        }
        let pins = PinMap.standard
        single("pin_go", pins.goButton, "go-button")
        list("pin_keypad_rows", pins.keypadRows, "keypad-row")
        list("pin_keypad_columns", pins.keypadColumns, "keypad-col")
        single("pin_red", pins.red, PanelOutput.red.rawValue)
        single("pin_yellow", pins.yellow, PanelOutput.yellow.rawValue)
        single("pin_green", pins.green, PanelOutput.green.rawValue)
        single("pin_blue", pins.blue, PanelOutput.blue.rawValue)
        single("pin_buzzer", pins.buzzer, PanelOutput.buzzer.rawValue)
        return lines
    }
}

/// The few settings doctor needs from /etc/recoverydeck/recoverydeck.conf (`key = value` lines, `#`
/// comments; recoverydeck.conf(5)), with the daemon's defaults (DESIGN §2) for absent or empty keys.
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
            ?? PanelChipLabels.automatic
    }

    /// Every configured line with its role, defaults where the file is silent.
    var gpioLines: [DoctorFacts.GPIOLine] {
        var lines: [DoctorFacts.GPIOLine] = []
        func single(_ key: String, _ fallback: Int) {
            lines.append(.init(role: key, offset: value(key).flatMap { Int($0) } ?? fallback, consumer: nil))
        }
        func list(_ key: String, _ fallback: [Int]) {
            let offsets = value(key).map { $0.split(separator: ",").compactMap { Int($0.trimmed) } } ?? fallback
            for (i, o) in offsets.enumerated() {
                lines.append(.init(role: "\(key)[\(i + 1)]", offset: o, consumer: nil))
            }
        }
        single("pin_go", 17)
        list("pin_keypad_rows", [5, 6, 13, 19])
        list("pin_keypad_columns", [12, 16, 20])
        single("pin_red", 22)
        single("pin_yellow", 23)
        single("pin_green", 24)
        single("pin_blue", 25)
        single("pin_buzzer", 18)
        return lines
    }
}

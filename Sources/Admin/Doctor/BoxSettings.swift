/// The few settings doctor needs from /etc/recoverydeck/recoverydeck.conf (`[section]`, `key = value`,
/// `#` comments; recoverydeck.conf(5)), with the documented defaults (DESIGN §2) for absent keys.
struct BoxSettings {
    private var values: [String: String] = [:]

    init(text: String) {
        var section = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmed
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast()).trimmed
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            values[section + "." + parts[0].trimmed] = parts[1].trimmed
        }
    }

    func value(_ section: String, _ key: String) -> String? { values[section + "." + key] }

    /// Every configured line with its role, defaults where the file is silent.
    var gpioLines: [DoctorFacts.GPIOLine] {
        var lines: [DoctorFacts.GPIOLine] = []
        func single(_ key: String, _ fallback: Int) {
            lines.append(.init(role: key, offset: value("gpio", key).flatMap { Int($0) } ?? fallback, consumer: nil))
        }
        func list(_ key: String, _ fallback: [Int]) {
            let offsets = value("gpio", key).map { $0.split(separator: ",").compactMap { Int($0.trimmed) } } ?? fallback
            for (i, o) in offsets.enumerated() { lines.append(.init(role: "\(key)[\(i + 1)]", offset: o, consumer: nil)) }
        }
        single("go", 17)
        list("keypad_rows", [5, 6, 13, 19])
        list("keypad_columns", [12, 16, 20])
        single("red", 22)
        single("yellow", 23)
        single("green", 24)
        single("blue", 25)
        single("buzzer", 18)
        return lines
    }
}

import Foundation
import Panel
import RecoveryCore
import Testing

/// The printed and drawn hardware documents say what the software does: the pin map, the wiring
/// drawing and the shipped configuration carry the panel's default lines (DESIGN §2), and the
/// faceplate names the questionnaire items and habit keys in the order the keypad reads them.
struct HardwareDocumentsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// Physical header pin of each BCM GPIO on the Raspberry Pi 40-pin header (J8), the same on every
    /// model with that header (Raspberry Pi documentation, "GPIO and the 40-pin header").
    static let headerPin: [UInt32: Int] = [
        2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33, 14: 8, 15: 10,
        16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
    ]

    /// Each configuration key with its default lines, from the panel itself.
    static var defaults: [(key: String, lines: [UInt32])] {
        let p = PinMap.standard
        return [
            ("pin_go", [p.goButton]), ("pin_keypad_rows", p.keypadRows), ("pin_keypad_columns", p.keypadColumns),
            ("pin_red", [p.red]), ("pin_yellow", [p.yellow]), ("pin_green", [p.green]), ("pin_blue", [p.blue]),
            ("pin_buzzer", [p.buzzer]),
        ]
    }

    @Test("hardware/pinmap.md gives each part the panel's default GPIO and the header pin of that GPIO (DESIGN §2)")
    func pinMapTable() throws {
        // Rows: | part | `key` [n] | GPIO | pin | direction | notes |
        var table: [String: [(gpio: UInt32, pin: Int)]] = [:]
        for line in try Self.text("hardware/pinmap.md").split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count > 5, cells[2].hasPrefix("`pin_"), let gpio = UInt32(cells[3]), let pin = Int(cells[4])
            else { continue }
            let key = String(cells[2].dropFirst().prefix { $0 != "`" })
            table[key, default: []].append((gpio, pin))
        }
        for (key, lines) in Self.defaults {
            let rows = try #require(table[key], "pinmap.md has no row for \(key)")
            #expect(rows.map(\.gpio) == lines, "\(key)")
            for row in rows {
                #expect(Self.headerPin[row.gpio] == row.pin, "\(key): GPIO\(row.gpio) is not pin \(row.pin)")
            }
        }
        #expect(table.count == Self.defaults.count, "\(table.keys.sorted())")
    }

    @Test("the shipped recoverydeck.conf states the panel's default lines and chip labels")
    func shippedConfiguration() throws {
        var values: [String: String] = [:]
        for line in try Self.text("deploy/recoverydeck.conf").split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        for (key, lines) in Self.defaults {
            #expect(values[key] == lines.map(String.init).joined(separator: ", "), "\(key)")
        }
        #expect(values["chip_label"] == PinMap.standard.chipLabels.joined(separator: ", "))
    }

    @Test("the wiring drawing labels each default GPIO with its part, on the right header pin")
    func wiringDrawing() throws {
        let svg = try Self.text("hardware/wiring.svg")
        let p = PinMap.standard
        var labels = [
            (p.goButton, "GO button"), (p.buzzer, "buzzer"), (p.red, "red light"), (p.yellow, "yellow light"),
            (p.green, "green light"), (p.blue, "blue light"),
        ]
        labels += p.keypadRows.enumerated().map { ($1, "keypad row \($0 + 1)") }
        labels += p.keypadColumns.enumerated().map { ($1, "keypad col \($0 + 1)") }
        for (gpio, part) in labels {
            #expect(svg.contains("GPIO\(gpio) · \(part)"), "wiring.svg lacks \"GPIO\(gpio) · \(part)\"")
            let pin = try #require(Self.headerPin[gpio])
            #expect(svg.contains("pin \(pin) (GPIO\(gpio))"), "wiring.svg does not wire GPIO\(gpio) at pin \(pin)")
        }
    }

    /// The visible words of an SVG, in document order.
    static func words(_ svg: String) -> String {
        var out = ""
        var inTag = false
        for c in svg {
            if c == "<" {
                inTag = true
                out.append(" ")
            } else if c == ">" {
                inTag = false
            } else if !inTag {
                out.append(c)
            }
        }
        return out.lowercased()
    }

    @Test("the faceplate names the five items in keypad order and the starter habits on keys 1–5 (DESIGN §1)")
    func faceplate() throws {
        var text = Self.words(try Self.text("hardware/faceplate.svg"))
        text = String(text[try #require(text.range(of: "five scores")).upperBound...])
        var position = text.startIndex
        for (n, item) in SubjectiveItem.allCases.enumerated() {
            let entry = try #require(text.range(of: "\(n + 1)  \(item.label) ", range: position..<text.endIndex))
            position = entry.upperBound
        }
        let habits = String(
            text[try #require(text.range(of: "habit mode", range: position..<text.endIndex)).upperBound...])
        // The label's words for each starter habit (Questionnaire.starterHabits, in key order).
        let printed = [
            "alcohol": "alcohol", "late-caffeine": "caffeine", "hard-training": "hard training",
            "late-night": "late night", "illness": "illness",
        ]
        #expect(Questionnaire.starterHabits.count == printed.count)
        position = habits.startIndex
        for (n, habit) in Questionnaire.starterHabits.enumerated() {
            let words = try #require(printed[habit])
            let entry = try #require(
                habits.range(of: "\(n + 1)  \(words)", range: position..<habits.endIndex), "key \(n + 1): \(habit)")
            position = entry.upperBound
        }
    }
}

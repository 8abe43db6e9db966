/// Which GPIO (BCM numbering, the chip's line offset) each part of the panel is wired to, and which chip
/// label to look for. The defaults are DESIGN §2's; the daemon's configuration file may change any of them.
public struct PinMap: Hashable, Sendable {
    /// Chip labels tried in order; the first chip present with one of them is used.
    public var chipLabels: [String]
    public var goButton: UInt32
    /// Top to bottom: the rows holding 1 2 3, 4 5 6, 7 8 9, * 0 #.
    public var keypadRows: [UInt32]
    /// Left to right.
    public var keypadColumns: [UInt32]
    public var red: UInt32
    public var yellow: UInt32
    public var green: UInt32
    public var blue: UInt32
    public var buzzer: UInt32

    public init(
        chipLabels: [String] = LibgpiodChip.raspberryPiLabels, goButton: UInt32 = 17,
        keypadRows: [UInt32] = [5, 6, 13, 19], keypadColumns: [UInt32] = [12, 16, 20], red: UInt32 = 22,
        yellow: UInt32 = 23, green: UInt32 = 24, blue: UInt32 = 25, buzzer: UInt32 = 18
    ) {
        self.chipLabels = chipLabels
        self.goButton = goButton
        self.keypadRows = keypadRows
        self.keypadColumns = keypadColumns
        self.red = red
        self.yellow = yellow
        self.green = green
        self.blue = blue
        self.buzzer = buzzer
    }

    /// DESIGN §2.
    public static let standard = PinMap()

    /// The line of each output.
    public func line(of output: PanelOutput) -> UInt32 {
        switch output {
        case .red: red
        case .yellow: yellow
        case .green: green
        case .blue: blue
        case .buzzer: buzzer
        }
    }

    /// Every assignment with the part's name, in panel order.
    public var assignments: [(part: String, line: UInt32)] {
        var parts: [(String, UInt32)] = [("GO button", goButton)]
        for (i, row) in keypadRows.enumerated() { parts.append(("keypad row \(i + 1)", row)) }
        for (i, column) in keypadColumns.enumerated() { parts.append(("keypad column \(i + 1)", column)) }
        parts += [
            ("red light", red), ("yellow light", yellow), ("green light", green), ("blue light", blue),
            ("buzzer", buzzer),
        ]
        return parts
    }

    /// Throws `invalidPinMap` naming the first problem: the wrong number of keypad lines, or a GPIO
    /// assigned to two parts.
    public func validate() throws(PanelError) {
        if chipLabels.isEmpty || chipLabels.contains(where: \.isEmpty) {
            throw .invalidPinMap("a GPIO chip label is empty")
        }
        if keypadRows.count != 4 { throw .invalidPinMap("the keypad needs 4 row lines, not \(keypadRows.count)") }
        if keypadColumns.count != 3 {
            throw .invalidPinMap("the keypad needs 3 column lines, not \(keypadColumns.count)")
        }
        var seen: [UInt32: String] = [:]
        for (part, line) in assignments {
            if let earlier = seen[line] {
                throw .invalidPinMap("GPIO\(line) is assigned to both the \(earlier) and the \(part)")
            }
            seen[line] = part
        }
    }
}

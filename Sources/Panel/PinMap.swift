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

    /// The Raspberry Pi chips that carry the 40-pin header, by label, with their line counts. On each, line
    /// offsets 0–27 are the header's GPIO0–27 in order, so a BCM number is the line offset: the Pi 5's RP1
    /// bank 0 (raspberrypi/linux, arch/arm64/boot/dts/broadcom/bcm2712-rpi-5-b.dts, `&rp1_gpio`
    /// gpio-line-names: "ID_SDA", "ID_SCL", "GPIO2" … "GPIO27" on lines 0–27, then RP1's own lines such as
    /// PCIE_RP1_WAKE, FAN_TACH and ETH_RST_N), and the Pi 4's and earlier boards' single bank.
    public static let raspberryPiHeaderChips: [(label: String, lines: Int)] = [
        ("pinctrl-rp1", 54), ("pinctrl-bcm2711", 58), ("pinctrl-bcm2835", 54),
    ]

    /// The header's GPIOs: the lines a panel may use on a Raspberry Pi header chip.
    public static let headerGPIOs: ClosedRange<UInt32> = 0...27

    /// The line offset of header GPIO `gpio` on the chip labelled `label`; nil when the chip is not a
    /// Raspberry Pi header chip or the GPIO is not on the header.
    public static func headerOffset(ofGPIO gpio: UInt32, onChip label: String) -> UInt32? {
        guard raspberryPiHeaderChips.contains(where: { $0.label == label }), headerGPIOs.contains(gpio) else {
            return nil
        }
        return gpio
    }

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
        // Past GPIO27 a Raspberry Pi chip's lines are the board's own (the Pi 5's GPIO32 resets Ethernet).
        let knownLabels = Set(Self.raspberryPiHeaderChips.map(\.label))
        if chipLabels.allSatisfy(knownLabels.contains),
            let (part, line) = assignments.first(where: { !Self.headerGPIOs.contains($0.line) })
        {
            throw .invalidPinMap("GPIO\(line) (the \(part)) is not on the 40-pin header, which has GPIO0–27")
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

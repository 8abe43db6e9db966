/// One key of the 3×4 keypad (DESIGN §2): digits 1–7 score, 8 and 9 are unused by the questionnaire,
/// `*` goes back, `0` switches habit mode, `#` submits.
public enum KeypadKey: Hashable, Sendable, CustomStringConvertible {
    case digit(Int)
    case star
    case hash

    /// Parses one keypad label: "0"–"9", "*", "#".
    public init?(label: some StringProtocol) {
        switch label {
        case "*": self = .star
        case "#": self = .hash
        default:
            guard label.count == 1, let d = Int(label), (0...9).contains(d) else { return nil }
            self = .digit(d)
        }
    }

    public var label: String {
        switch self {
        case .digit(let d): String(d)
        case .star: "*"
        case .hash: "#"
        }
    }

    public var description: String { label }

    /// All twelve keys in faceplate order (row by row).
    public static let all: [KeypadKey] =
        (1...9).map { .digit($0) } + [.star, .digit(0), .hash]
}

/// How the GO button was pressed (DESIGN §2: debounce 30 ms; long press 2 s).
public enum GoPress: Hashable, Sendable {
    /// Released before the long-press time.
    case short
    /// Still held when the long-press time was reached (reported once, at that moment).
    case long
}

/// A key of the 3×4 keypad (DESIGN §2: 1–7 scores, 8/9 unused, `*` back, `0` habit mode, `#` submit).
public enum KeypadKey: Hashable, Sendable, CustomStringConvertible, CaseIterable {
    case digit(Int)
    case star
    case hash

    /// Row-major, as the keypad is printed.
    public static let layout: [[KeypadKey]] = [
        [.digit(1), .digit(2), .digit(3)],
        [.digit(4), .digit(5), .digit(6)],
        [.digit(7), .digit(8), .digit(9)],
        [.star, .digit(0), .hash],
    ]

    public static var allCases: [KeypadKey] { layout.flatMap { $0 } }

    /// The key printed as `text` ("5", "*", "#").
    public init?(_ text: String) {
        switch text {
        case "*": self = .star
        case "#": self = .hash
        default:
            guard text.count == 1, let d = Int(text) else { return nil }
            self = .digit(d)
        }
    }

    /// Row and column (0-based) on the keypad.
    public var position: (row: Int, column: Int) {
        for (r, row) in KeypadKey.layout.enumerated() {
            if let c = row.firstIndex(of: self) { return (r, c) }
        }
        return (3, 1)
    }

    public var description: String {
        switch self {
        case .digit(let d): String(d)
        case .star: "*"
        case .hash: "#"
        }
    }
}

/// What the person did at the panel, after debouncing; or a fault of the panel itself.
public enum PanelEvent: Hashable, Sendable, CustomStringConvertible {
    /// GO went down (debounced). Always followed later by `goReleased`.
    case goPressed
    /// GO has been held for the long-press time (2 s), still down. At most once per press.
    case goLongPress
    /// GO came up. `wasLongPress` tells whether `goLongPress` was sent for this press; a press released
    /// without it is the ordinary "GO".
    case goReleased(wasLongPress: Bool)
    case keyPressed(KeypadKey)
    case keyReleased(KeypadKey)
    /// A line could not be read or set; the panel keeps going with what works.
    case fault(PanelError)

    public var description: String {
        switch self {
        case .goPressed: "go-down"
        case .goLongPress: "go-long"
        case .goReleased(let long): long ? "go-up(long)" : "go-up"
        case .keyPressed(let key): "key-down \(key)"
        case .keyReleased(let key): "key-up \(key)"
        case .fault(let error): "fault: \(error)"
        }
    }
}

/// The panel's outputs.
public enum PanelOutput: String, Hashable, Sendable, CaseIterable {
    case red
    case yellow
    case green
    case blue
    case buzzer
}

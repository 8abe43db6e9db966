import RecoveryCore

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

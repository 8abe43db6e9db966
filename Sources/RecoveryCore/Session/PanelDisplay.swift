/// The panel's four lamps (DESIGN §2): the traffic light (red, yellow, green) and the blue status light.
public enum Lamp: String, CaseIterable, Hashable, Sendable {
    case red
    case yellow
    case green
    case blue
}

/// What every lamp of the panel shows at one moment. The daemon sets a whole display at once; the
/// panel starts each lamp's pattern from that moment (so a blue count and a delayed channel light
/// stay in step).
public struct PanelDisplay: Hashable, Sendable, CustomStringConvertible {
    public var red: LightPattern
    public var yellow: LightPattern
    public var green: LightPattern
    public var blue: LightPattern

    public init(
        red: LightPattern = .off, yellow: LightPattern = .off, green: LightPattern = .off, blue: LightPattern = .off
    ) {
        self.red = red
        self.yellow = yellow
        self.green = green
        self.blue = blue
    }

    /// Everything off: a bedside box is dark unless it has something to say.
    public static let dark = PanelDisplay()

    public subscript(lamp: Lamp) -> LightPattern {
        get {
            switch lamp {
            case .red: red
            case .yellow: yellow
            case .green: green
            case .blue: blue
            }
        }
        set {
            switch lamp {
            case .red: red = newValue
            case .yellow: yellow = newValue
            case .green: green = newValue
            case .blue: blue = newValue
            }
        }
    }

    /// "red: off, yellow: on, green: off, blue: fast blink" with dark lamps left out ("dark" when all are).
    public var description: String {
        let lit = Lamp.allCases.filter { self[$0] != .off }.map { "\($0.rawValue): \(self[$0].name)" }
        return lit.isEmpty ? "dark" : lit.joined(separator: ", ")
    }
}

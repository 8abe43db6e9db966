/// The five morning items, in the fixed keypad order (DESIGN §1; spec review notes §6, Blocks A+B).
/// Every item is scored 1–7 with higher = better.
public enum SubjectiveItem: String, CaseIterable, Sendable, Codable {
    case fatigue
    case mood
    case soreness
    case stress
    case sleep

    /// Label for the faceplate, the terminal and error sentences.
    public var label: String {
        switch self {
        case .fatigue: "fatigue"
        case .mood: "mood"
        case .soreness: "soreness"
        case .stress: "life stress"
        case .sleep: "sleep quality"
        }
    }
}

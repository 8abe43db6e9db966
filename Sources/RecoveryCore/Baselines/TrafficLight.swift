/// The three lights of the box (DESIGN §2).
public enum TrafficLight: String, CaseIterable, Hashable, Sendable {
    case green
    case yellow
    case red

    /// |z| ≤ 1 green, ≤ 1.5 yellow, > 1.5 red (RecoveryDeck spec §5.4); `BandEdges.light(z:)` for other edges.
    public init(z: Double) {
        self = BandEdges.spec.light(z: z)
    }

    /// Absolute subjective fallback while baselines build (spec §5.4): mean ≥ 5.0 green, ≥ 3.5 yellow, else red.
    public init(subjectiveMean mean: Double) {
        self = mean >= 5.0 ? .green : (mean >= 3.5 ? .yellow : .red)
    }

    /// Majority of the lights given (the most frequent); a tie for the most frequent is yellow (spec §5.4).
    /// nil for no lights.
    public static func composite(of lights: some Sequence<TrafficLight>) -> TrafficLight? {
        var counts = [0, 0, 0]
        for light in lights {
            switch light {
            case .green: counts[0] += 1
            case .yellow: counts[1] += 1
            case .red: counts[2] += 1
            }
        }
        let top = counts.max()!
        if top == 0 { return nil }
        if counts.filter({ $0 == top }).count > 1 { return .yellow }
        return counts[0] == top ? .green : (counts[1] == top ? .yellow : .red)
    }
}

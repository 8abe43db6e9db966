/// The five required scores.
public struct SubjectiveScores: Hashable, Sendable {
    public var fatigue: Score
    public var mood: Score
    public var soreness: Score
    public var stress: Score
    public var sleep: Score

    public init(fatigue: Score, mood: Score, soreness: Score, stress: Score, sleep: Score) {
        self.fatigue = fatigue
        self.mood = mood
        self.soreness = soreness
        self.stress = stress
        self.sleep = sleep
    }

    /// Builds from five values in `SubjectiveItem.allCases` order; nil if any is outside 1–7.
    public init?(_ values: [Int]) {
        guard values.count == 5, let f = Score(values[0]), let m = Score(values[1]), let so = Score(values[2]),
            let st = Score(values[3]), let sl = Score(values[4])
        else { return nil }
        self.init(fatigue: f, mood: m, soreness: so, stress: st, sleep: sl)
    }

    public subscript(item: SubjectiveItem) -> Score {
        switch item {
        case .fatigue: fatigue
        case .mood: mood
        case .soreness: soreness
        case .stress: stress
        case .sleep: sleep
        }
    }

    /// The subjective channel's daily value.
    public var mean: Double {
        Double(fatigue.value + mood.value + soreness.value + stress.value + sleep.value) / 5.0
    }
}

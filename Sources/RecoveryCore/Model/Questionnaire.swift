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

/// One 1–7 questionnaire score.
public struct Score: Hashable, Comparable, Sendable {
    public static let range = 1...7
    public let value: Int

    public init?(_ value: Int) {
        guard Score.range.contains(value) else { return nil }
        self.value = value
    }

    public static func < (a: Score, b: Score) -> Bool { a.value < b.value }
}

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

/// A day's questionnaire (spec §9.1 Blocks A–E): required scores plus optional context.
public struct Questionnaire: Hashable, Sendable {
    public var date: LocalDate
    public var scores: SubjectiveScores
    /// Habit tags toggled for this morning, sorted, each one of the configured habit names.
    public var habits: [String]
    public var caffeineTime: MinuteOfDay?
    public var caffeineMg: Int?
    public var lastMealTime: MinuteOfDay?
    public var notes: String?

    public init(
        date: LocalDate, scores: SubjectiveScores, habits: [String] = [], caffeineTime: MinuteOfDay? = nil,
        caffeineMg: Int? = nil, lastMealTime: MinuteOfDay? = nil, notes: String? = nil
    ) {
        self.date = date
        self.scores = scores
        self.habits = Array(Set(habits)).sorted()
        self.caffeineTime = caffeineTime
        self.caffeineMg = caffeineMg
        self.lastMealTime = lastMealTime
        self.notes = notes
    }

    /// The starter habit list (spec review notes §6 Block C); the live list is a setting.
    public static let starterHabits = ["alcohol", "late-caffeine", "hard-training", "late-night", "illness"]
}

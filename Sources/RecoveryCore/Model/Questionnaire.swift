
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

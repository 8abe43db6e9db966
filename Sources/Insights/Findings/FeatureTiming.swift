import RecoveryCore

/// When a questionnaire answer happened relative to the morning it was entered on.
public enum FeatureTiming: String, Sendable {
    /// Habit tags, caffeine and last meal entered on morning d describe the evening or day before it
    /// ("alcohol last night", "hard training yesterday"): they happen before morning d's measurement.
    case eveningBefore
    /// The five scores describe the morning itself, a few minutes before the measurement.
    case sameMorning
}

/// What one night of an experiment asks: do the habit this evening, or leave it out.
public enum ExperimentArm: String, Sendable, CaseIterable {
    case habit
    case without

    /// The instruction for the evening, as `experiment tonight` and `status` say it.
    public func instruction(_ habit: String) -> String {
        switch self {
        case .habit: "\(habit) (do it)"
        case .without: "no \(habit) (leave it out)"
        }
    }
}

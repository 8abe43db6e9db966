/// One morning of an experiment: the arm its night was assigned, the outcome measured that morning (nil when
/// missed), and what the morning's habit chips say was done (nil when there was no check-in).
public struct ExperimentMorning: Sendable, Equatable {
    public var arm: ExperimentArm
    public var outcome: Double?
    public var didHabit: Bool?

    public init(arm: ExperimentArm, outcome: Double?, didHabit: Bool?) {
        self.arm = arm
        self.outcome = outcome
        self.didHabit = didHabit
    }

    /// The check-in says the night went as assigned.
    public var followed: Bool? { didHabit.map { $0 == (arm == .habit) } }
}

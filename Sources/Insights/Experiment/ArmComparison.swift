/// Habit minus without, over some of the mornings.
public struct ArmComparison: Sendable, Equatable {
    /// Habit minus without, in the outcome's unit: within blocks for the randomised comparison (see
    /// `ExperimentAnalysis.withinBlocks`), the plain difference in means per protocol.
    public var difference: Double
    public var ciLow: Double
    public var ciHigh: Double
    public var habitMornings: Int
    public var withoutMornings: Int
    /// Mean of the mornings without the habit (the reference for the %).
    public var withoutMean: Double
    /// The randomisation test's two-sided p; nil for a comparison the randomisation does not cover.
    public var p: Double?

    /// The difference in % of the mornings without the habit.
    public var percent: Double { withoutMean != 0 ? difference / abs(withoutMean) * 100 : 0 }
}

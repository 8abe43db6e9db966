/// One association that survived the scan, with everything the card shows (Health Engine README: "Every
/// surviving finding carries its own effect size, day count, q-value and bootstrap CI").
public struct Finding: Sendable, Equatable {
    public var feature: Feature
    public var outcome: Outcome
    public var lag: Lag
    public var association: Association
    /// BH q-value within the finding's family (questions or checks).
    public var q: Double
    public var tier: Tier
    /// Days the habit was tagged among the paired days (habits only).
    public var taggedDays: Int?
    /// Set when the pair moves together by definition.
    public var nearTautological: String?
    /// Related outcomes that also survived and were folded into this one (the weaker of gapAvg / gapPeak).
    public var collapsed: [Outcome]
    /// The halves' results (T2 check), when run.
    public var halves: [Association?]
    /// |r| of the forward and reverse pairings (T3 check), when judged.
    public var precedence: (forward: Double, reverse: Double)?
    /// Why the finding stops short of T3, when it is T2 (one sentence), else nil.
    public var tierNote: String?
    /// The day-of-week check (nil when too few days to run it).
    public var weekday: WeekdayCheck? = nil

    /// The tier's fixed wording: a deterministic template per tier (Health Engine README, tier table).
    public var sentence: String { Wording.sentence(for: self) }

    public static func == (a: Finding, b: Finding) -> Bool {
        a.feature == b.feature && a.outcome == b.outcome && a.lag == b.lag && a.association == b.association
            && a.q == b.q && a.tier == b.tier && a.taggedDays == b.taggedDays
            && a.nearTautological == b.nearTautological && a.collapsed == b.collapsed && a.halves == b.halves
            && a.precedence?.forward == b.precedence?.forward && a.precedence?.reverse == b.precedence?.reverse
            && a.tierNote == b.tierNote && a.weekday == b.weekday
    }
}

/// One test of the family, surviving or not (for `--json` and for counting).
public struct TestedPair: Sendable, Equatable {
    public var feature: Feature
    public var outcome: Outcome
    public var lag: Lag
    public var association: Association
    public var q: Double
    public var survived: Bool
    /// In the checks' family (related by definition, or two morning metrics), not the questions'.
    public var isCheck: Bool = false
}

/// An analysis that cannot run yet, and how many more days it needs ("not enough data yet").
public struct Pending: Sendable, Equatable {
    public enum Analysis: String, Sendable {
        case deviation
        case sameMorningAssociation = "same_morning_association"
        case laggedAssociation = "lagged_association"
        case habitTagging = "habit_tagging"
        case noVariation = "no_variation"
        case changePoint = "change_point"
    }

    public var analysis: Analysis
    /// What it is about ("rMSSD", "alcohol", "alcohol × rMSSD, lag 0").
    public var subject: String
    public var have: Int
    public var need: Int
    /// At least this many more days with the values in question (0 when days alone will not do it).
    public var moreDays: Int
    public var sentence: String
    /// The feature of a waiting test (nil for deviations).
    public var feature: Feature? = nil
    public var lag: Lag? = nil
}

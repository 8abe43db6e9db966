/// Evidence tiers (Health Engine README, "the tier is the product, not a footnote"). T1–T3 come from the scan
/// of the person's history; T4 only from `Experiment`, the person's own randomised test.
public enum Tier: Int, Sendable, Comparable, CaseIterable {
    /// A day outside the person's rolling baseline.
    case t0 = 0
    /// Survives BH-FDR at q = 0.10 with |r| ≥ 0.25, autocorrelation-corrected.
    case t1 = 1
    /// T1, and the same sign and p < 0.05 in each of two non-overlapping halves of the days.
    case t2 = 2
    /// T2, and the earlier thing predicts the later one more strongly than the reverse, and no habit that
    /// co-occurs with the feature explains the association away (partial correlation).
    case t3 = 3
    /// A within-person randomised experiment whose randomisation test rejects "no effect" at α 0.05.
    case t4 = 4

    public var name: String { "T\(rawValue)" }

    public static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }

    /// What the tier takes, in a sentence (for `--help` and the report's legend).
    public var meaning: String {
        switch self {
        case .t0: "a day outside your rolling baseline"
        case .t1: "survives the false-discovery check across every test of the scan"
        case .t2: "also holds, same direction, in both halves of your history"
        case .t3: "also comes first in time, and no co-occurring habit nor the day of the week explains it"
        case .t4: "your own randomised test shows it"
        }
    }
}

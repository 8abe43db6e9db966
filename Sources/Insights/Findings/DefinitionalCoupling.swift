import RecoveryCore

/// Pairs that move together by definition, which a scan surfaces but labels near-tautological (Health
/// Engine README: resting HR against VO₂max "closely coupled by definition ... surfacing that as a stable
/// association and saying it's near-tautological is the intended behaviour").
public enum DefinitionalCoupling {
    /// Why `feature` and `outcome` are coupled by definition, or nil when they are not.
    public static func reason(feature: Feature, outcome: Outcome, lag: Lag = .zero) -> String? {
        if case .metric(let metric) = feature { return reason(metric, outcome) }
        if case .score(let item) = feature, outcome == .subjective {
            // Next morning: not the same number, but the item carries over from day to day inside the mean.
            return lag == .zero
                ? "the subjective mean includes the \(item.label) score"
                : "the subjective mean includes the \(item.label) score, which carries over from day to day"
        }
        return nil
    }

    /// Why two outcomes are coupled by definition (spec §5.3: gapAvg = standing − lying, gapPeak = peak − lying,
    /// so each gap moves against lying HR by construction; the two gaps share their lying term).
    public static func reason(_ a: Outcome, _ b: Outcome) -> String? {
        let pair = Set([a, b])
        if pair == [.gapAvg, .lyingHR] { return "gap avg is standing HR minus lying HR" }
        if pair == [.gapPeak, .lyingHR] { return "gap peak is peak standing HR minus lying HR" }
        if pair == [.gapAvg, .gapPeak] { return "both gaps subtract the same lying HR" }
        return nil
    }

    /// Related outcomes reported as one (Health Engine README: related metrics "are collapsed to their single
    /// strongest result rather than counted as independent discoveries").
    public static func relatedGroup(_ outcome: Outcome) -> Int? {
        switch outcome {
        case .gapAvg, .gapPeak: 1
        default: nil
        }
    }
}

/// The fixed sentence of each tier (Health Engine README: T1 "These have co-occurred 9 times.", T2 "These
/// tend to move together.", T3 "This may be contributing.", T0 "Your HRV was 12% below baseline."). The
/// same finding always reads the same; no sentence is generated.
public enum Wording {
    public static func sentence(for f: Finding) -> String {
        let direction = f.association.r < 0 ? "lower" : "higher"
        let outcome = "\(direction) \(label(f.outcome))"
        let when = f.lag.phrase(for: f.feature)
        let base: String
        switch f.tier {
        case .t0:
            base = ""
        case .t1:
            if let tagged = f.taggedDays {
                base = "\(capitalised(subject(f.feature))) and \(outcome) \(when) have co-occurred \(tagged) times."
            } else {
                base =
                    "\(capitalised(subject(f.feature))) and \(outcome) \(when) have co-occurred over "
                    + "\(f.association.n) days."
            }
        case .t2:
            base = "\(capitalised(subject(f.feature))) and \(outcome) \(when) tend to move together."
        case .t3:
            base = "\(capitalised(subject(f.feature))) may be contributing to \(outcome) \(when)."
        case .t4:
            // A scan never reaches T4; the experiment's result has its own sentence (`ExperimentResult`).
            base = "\(capitalised(subject(f.feature))) changed your \(label(f.outcome)) in your own test."
        }
        guard let coupling = f.nearTautological else { return base }
        return base + " Near-tautological: \(coupling)."
    }

    /// The outcome's name in a sentence.
    public static func label(_ outcome: Outcome) -> String {
        outcome == .subjective ? "subjective mean" : outcome.label
    }

    /// The feature as the subject of a sentence: a habit by name, a quantity as "more …" / "later …", a metric as
    /// "a higher …", a score as "a better … score" (every item is scored 1–7 with higher = better, so "higher life stress score"
    /// would read backwards).
    static func subject(_ feature: Feature) -> String {
        switch feature {
        case .habit(let name): name
        case .caffeineAmount: "more caffeine"
        case .caffeineTime: "later caffeine"
        case .lastMealTime: "a later last meal"
        case .score(let item): "a better \(item.label) score"
        case .metric(let channel): "a higher \(label(channel))"
        }
    }

    static func capitalised(_ s: String) -> String {
        guard let first = s.first else { return s }
        return first.uppercased() + s.dropFirst()
    }
}

/// How a morning's beats were judged (docs/artifacts.md, "Provenance"): the rule and its version, and why each
/// rejected beat was rejected. Stored with the morning, shown by `status`, carried by the export and
/// `history --json`, so a morning says how it was judged and baselines can tell mornings judged differently apart.
///
/// The counts are plain fields, not an array: the window counts a reason per beat, and nothing on the per-beat
/// path allocates (DESIGN §4).
public struct ArtifactTally: Hashable, Sendable {
    /// Why a beat was rejected.
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// One interval where two or more belong (pattern rule, test 2).
        case missed
        /// Two intervals where one belongs (test 3).
        case extra
        /// A premature beat or its compensatory pause (test 4).
        case ectopic
        /// A lone beat, or a burst of short ones, away from sinus rhythm (test 5).
        case outlier
        /// Outside 300...2000 ms (both rules).
        case outOfRange = "out_of_range"
        /// Beside an artifact and too far from the reference to judge with confidence (test 6).
        case uncertain
        /// More than 20 % from the previous RR (the spec's rule).
        case successiveDifference = "successive_difference"
        /// Carried by a notification in which the strap said it had no skin contact (Heart Rate Measurement
        /// flags, bits 1–2), or gave a zero rate: the strap was not reading a heart (both rules, morning path).
        case noContact = "no_contact"

        /// The words `status` uses: "missed", "out of range", …
        public var words: String { String(rawValue.map { $0 == "_" ? " " : $0 }) }
    }

    public var rule: ArtifactRule
    /// The rule's version (`ArtifactRule.version`) when the morning was judged.
    public var version: Int
    public var missed = 0
    public var extra = 0
    public var ectopic = 0
    public var outlier = 0
    public var outOfRange = 0
    public var uncertain = 0
    public var successiveDifference = 0
    public var noContact = 0

    public init(rule: ArtifactRule, version: Int) {
        self.rule = rule
        self.version = version
    }

    /// A fresh tally for the rule as it is now.
    public init(rule: ArtifactRule) { self.init(rule: rule, version: rule.version) }

    public subscript(reason: Reason) -> Int {
        get {
            switch reason {
            case .missed: missed
            case .extra: extra
            case .ectopic: ectopic
            case .outlier: outlier
            case .outOfRange: outOfRange
            case .uncertain: uncertain
            case .successiveDifference: successiveDifference
            case .noContact: noContact
            }
        }
        set {
            switch reason {
            case .missed: missed = newValue
            case .extra: extra = newValue
            case .ectopic: ectopic = newValue
            case .outlier: outlier = newValue
            case .outOfRange: outOfRange = newValue
            case .uncertain: uncertain = newValue
            case .successiveDifference: successiveDifference = newValue
            case .noContact: noContact = newValue
            }
        }
    }

    /// Every rejected beat, whatever the reason.
    public var rejected: Int { Reason.allCases.reduce(0) { $0 + self[$1] } }

    /// "2 missed, 1 ectopic, 1 uncertain": the reasons with a count, in a fixed order; "" when none.
    public var reasonsText: String {
        Reason.allCases.filter { self[$0] > 0 }.map { "\(self[$0]) \($0.words)" }.joined(separator: ", ")
    }

    /// The store's spelling of the counts: "missed=2 ectopic=1" (reasons with a count only).
    public var countsCode: String {
        Reason.allCases.filter { self[$0] > 0 }.map { "\($0.rawValue)=\(self[$0])" }.joined(separator: " ")
    }

    /// The tally a rule, a version and `countsCode` name; nil for text that is not one.
    public init?(rule: ArtifactRule, version: Int, countsCode: String) {
        self.init(rule: rule, version: version)
        for item in countsCode.split(separator: " ") {
            let parts = item.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let reason = Reason(rawValue: String(parts[0])), let count = Int(parts[1]),
                count >= 0, self[reason] == 0
            else { return nil }
            self[reason] = count
        }
    }
}

extension ArtifactRule {
    /// The version of the rule's detector: raised whenever a change to it can move a verdict, so that a stored
    /// morning says which detector judged it (docs/artifacts.md, "Provenance"). Pattern 1 was the rule of
    /// neighbours only; 2 holds runs and clusters against the reference and rejects the beats it cannot judge; 3
    /// (and spec-20's 2) rejects the beats of a notification without skin contact; 4 judges the settle's beats
    /// before they teach the reference, re-anchors after a long run of rejections only on a beat the two after it
    /// agree with, and no longer takes a beat for missed or a pause on the strength of a neighbour that is itself
    /// an artifact or barely premature; 5 asks the beats after a new reference to agree with it as closely as the
    /// person's own beats follow one another (4 × their variability, at least half the threshold), not within the
    /// threshold alone; 6 holds a beat against the reference, which lags a change of rate, only when it also moves
    /// from the beat before: taken for missed only when it rises more than 1.5 thresholds above it, for a burst's
    /// piece only when it drops more than half a threshold below it (a sleeper's slowing or quickening under way
    /// reached twice or 70 % of the lagging reference in small steps); 7 takes a rise of more than 55 % from the beat
    /// before for an outlier (60 % before: the first interval of a missed run as a sleeper quickened rose 58 %).
    public var version: Int {
        switch self {
        case .pattern: 7
        case .spec20: 2
        }
    }
}

extension PatternArtifactDetector.Verdict {
    /// The reason the tally counts; nil for an accepted beat.
    public var reason: ArtifactTally.Reason? {
        switch self {
        case .accepted: nil
        case .outOfRange: .outOfRange
        case .missedBeat: .missed
        case .extraBeat: .extra
        case .ectopicBeat: .ectopic
        case .outlier: .outlier
        case .uncertain: .uncertain
        }
    }
}

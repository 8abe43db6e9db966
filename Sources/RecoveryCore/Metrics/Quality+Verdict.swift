extension Quality {
    /// The minimum accepted intervals of a window (spec §5.1 step 4).
    public static let minimumAccepted = 45
    /// The minimum sum of accepted RR of a window, ms (spec §5.1: "physiological 60 s of RR").
    public static let minimumAcceptedSumMs = 60_000.0

    /// The minimum adjacent pairs rMSSD is taken over (spec §5.1 "successive valid intervals").
    ///
    /// 33 is the fewest pairs the spec's own floors leave in a stream without gaps: with A ≥ 45 accepted and a
    /// ratio ≤ 0.20, at most ⌊A/4⌋ beats were rejected, which split the accepted beats into at most ⌊A/4⌋ + 1
    /// runs, so P ≥ A − ⌊A/4⌋ − 1 ≥ 45 − 11 − 1 = 33. The floor therefore never fails a capture the spec passes;
    /// it fails only one whose pairs gaps in the stream (lost notifications) broke below what the spec's floors
    /// promise, where rMSSD would rest on fewer beat-to-beat changes than any clean capture does. It is not a
    /// completion condition: the capture still ends when the spec says (accepted sum and count).
    public static let minimumPairs = 33

    /// The quality verdict of a capture (RecoveryDeck spec §5.1 step 4, §4.1), reasons checked in this order:
    /// 1. no RR judged at all → `rrUnavailable` (HR-only strap or notifications without the RR bit);
    /// 2. artifactRatio > 0.20 → `tooManyArtifacts` (checked as 5·rejected > total: exactly 0.20 passes);
    /// 3. accepted < 45, accepted sum < 60 000 ms, or fewer than `minimumPairs` adjacent pairs → `tooFewBeats`.
    /// Artifacts come before beat count because they name the fix (snug, moist strap) when both apply.
    /// `pairs` nil: a list with no pair information (the floors of the count and sum alone).
    public static func verdict(accepted: Int, rejected: Int, acceptedSumMs: Double, pairs: Int? = nil) -> Quality {
        let total = accepted + rejected
        if total == 0 { return .fail(.rrUnavailable) }
        if 5 * rejected > total { return .fail(.tooManyArtifacts) }
        if accepted < minimumAccepted || acceptedSumMs < minimumAcceptedSumMs { return .fail(.tooFewBeats) }
        if let pairs, pairs < minimumPairs { return .fail(.tooFewBeats) }
        return .ok
    }
}

extension Quality {
    /// `ok`, or the failure's code (`too_few_beats`, `too_many_artifacts`, `rr_unavailable`): the one spelling the
    /// store, the export, the CLI and the oracle tools share.
    public var code: String {
        switch self {
        case .ok: "ok"
        case .fail(let reason): reason.rawValue
        }
    }

    /// The verdict a `code` names, or nil for text that names none.
    public init?(code: String) {
        if code == "ok" {
            self = .ok
        } else if let reason = QualityFailure(rawValue: code) {
            self = .fail(reason)
        } else {
            return nil
        }
    }
}

extension QualityFailure {
    /// One sentence for the person (spec §4.1 for RR unavailable, §5.1 for the rest).
    public var sentence: String {
        // The session's fault says the same (one failure, one sentence).
        MorningFault(self).sentence
    }
}

extension HRVMetrics {
    /// A morning with more than this share of its beats rejected is graded "fair": still counted in the baselines,
    /// but the readout and the export say so with the share (docs/artifacts.md).
    public static let fairAboveRatio = 0.05

    /// More than 5 % of the beats rejected, within the 20 % a pass allows.
    public var isFair: Bool { artifactRatio > Self.fairAboveRatio && artifactRatio <= 0.20 }

    /// "fair (7.3 % of beats rejected)", or nil for a morning with 5 % or fewer rejected.
    public var fairNote: String? {
        guard isFair else { return nil }
        return "fair (\(rejectedShareText) of beats rejected)"
    }

    /// The share of beats rejected, to a tenth of a percent: "7.3 %".
    public var rejectedShareText: String {
        let tenths = Int((artifactRatio * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10) %"
    }

    /// "good" or "fair": the grade of a morning that passed (the export's and `history --json`'s spelling).
    public var grade: String { isFair ? "fair" : "good" }
}

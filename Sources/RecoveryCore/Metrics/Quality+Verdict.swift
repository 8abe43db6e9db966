extension Quality {
    /// The minimum accepted intervals of a window (spec §5.1 step 4).
    public static let minimumAccepted = 45
    /// The minimum sum of accepted RR of a window, ms (spec §5.1: "physiological 60 s of RR").
    public static let minimumAcceptedSumMs = 60_000.0

    /// The quality verdict of a capture (RecoveryDeck spec §5.1 step 4, §4.1), reasons checked in this order:
    /// 1. no RR judged at all → `rrUnavailable` (HR-only strap or notifications without the RR bit);
    /// 2. artifactRatio > 0.20 → `tooManyArtifacts` (checked as 5·rejected > total: exactly 0.20 passes);
    /// 3. accepted < 45 or accepted sum < 60 000 ms → `tooFewBeats`.
    /// Artifacts come before beat count because they name the fix (snug, moist strap) when both apply.
    public static func verdict(accepted: Int, rejected: Int, acceptedSumMs: Double) -> Quality {
        let total = accepted + rejected
        if total == 0 { return .fail(.rrUnavailable) }
        if 5 * rejected > total { return .fail(.tooManyArtifacts) }
        if accepted < minimumAccepted || acceptedSumMs < minimumAcceptedSumMs { return .fail(.tooFewBeats) }
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
        switch self {
        case .tooFewBeats:
            "Not enough clean beats in 90 seconds — lie still and try again."
        case .tooManyArtifacts:
            "Too many irregular beats — moisten the strap's electrodes, make it snug, and try again."
        case .rrUnavailable:
            "RR intervals not available — ensure H10 is snug, charged, and not connected exclusively elsewhere; "
                + "prefer H10 in heart rate mode."
        }
    }
}

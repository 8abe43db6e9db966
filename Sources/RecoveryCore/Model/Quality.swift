/// Why an rMSSD capture failed quality (spec §5.1 step 4; §4.1 for RR unavailable).
public enum QualityFailure: String, Sendable, CaseIterable {
    case tooFewBeats = "too_few_beats"
    case tooManyArtifacts = "too_many_artifacts"
    case rrUnavailable = "rr_unavailable"
}

/// The quality verdict of a capture.
public enum Quality: Hashable, Sendable {
    case ok
    case fail(QualityFailure)

    public var isOK: Bool { self == .ok }
}

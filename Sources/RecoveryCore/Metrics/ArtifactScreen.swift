/// Which artifact rule judges the beats of a morning or an RR list (docs/artifacts.md). Stored as the
/// `artifact_rule` setting.
public enum ArtifactRule: String, Hashable, Sendable, CaseIterable {
    /// Local beat patterns with a threshold scaled to the person's variability (`PatternArtifactDetector`): the
    /// default. A beat is judged once the next two have arrived.
    case pattern
    /// The spec's v3 rule (§5.1): drop an RR more than 20 % away from the previous one (`ArtifactFilter`), judged
    /// as it arrives.
    case spec20 = "spec-20"

    public static let `default` = ArtifactRule.pattern
}

/// The chosen artifact rule behind one interface: beats go in as received and come out judged, in order, with
/// whether a gap in the stream came just before each.
public struct ArtifactScreen: Sendable {
    public let rule: ArtifactRule
    @usableFromInline var spec = ArtifactFilter()
    var pattern = PatternArtifactDetector()

    public init(rule: ArtifactRule = .default) { self.rule = rule }

    public var accepted: Int { rule == .spec20 ? spec.accepted : pattern.accepted }
    public var rejected: Int { rule == .spec20 ? spec.rejected : pattern.rejected }
    /// Beats received but not judged yet.
    public var waiting: Int { rule == .spec20 ? 0 : pattern.waiting }

    public mutating func prime(_ rrMs: Double) {
        switch rule {
        case .spec20: spec.prime(rrMs)
        case .pattern: pattern.prime(rrMs)
        }
    }

    /// Receives one RR; `emit(rr, reason, gapBefore)` for each beat judged now: `reason` nil for an accepted beat,
    /// else why it was rejected.
    public mutating func push(_ rrMs: Double, gapBefore: Bool, emit: (Double, ArtifactTally.Reason?, Bool) -> Void) {
        switch rule {
        case .spec20:
            let reason: ArtifactTally.Reason? =
                switch spec.judge(rrMs) {
                case .accepted: nil
                case .outOfRange: .outOfRange
                case .successiveDifference: .successiveDifference
                }
            emit(rrMs, reason, gapBefore)
        case .pattern: pattern.push(rrMs, gapBefore: gapBefore) { emit($0, $1.reason, $2) }
        }
    }

    /// Judges the beats still waiting (the stream ended).
    public mutating func flush(emit: (Double, ArtifactTally.Reason?, Bool) -> Void) {
        if rule == .pattern { pattern.flush { emit($0, $1.reason, $2) } }
    }
}

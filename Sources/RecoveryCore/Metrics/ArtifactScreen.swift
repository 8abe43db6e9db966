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
    /// Settle beats the pattern rule has received and not yet judged: the next verdicts it gives are theirs, and are
    /// not emitted (the capture does not count them).
    var settleWaiting = 0

    public init(rule: ArtifactRule = .default) { self.rule = rule }

    public var accepted: Int { rule == .spec20 ? spec.accepted : pattern.accepted }
    public var rejected: Int { rule == .spec20 ? spec.rejected : pattern.rejected }
    /// Beats received but not judged yet.
    public var waiting: Int { rule == .spec20 ? 0 : pattern.waiting }

    /// A settle beat (spec §5.1 "Settle"): not counted, but the rule's reference learns from it. The spec rule takes
    /// it as its reference. The pattern rule judges it like any beat and learns only from the beats it accepts, so
    /// an artifact in the settle (a missed beat, an ectopic pair, a motion burst) never becomes the reference and
    /// the variability the capture is judged against.
    public mutating func prime(_ rrMs: Double) {
        switch rule {
        case .spec20: spec.prime(rrMs)
        case .pattern:
            var waiting = settleWaiting + 1
            pattern.push(rrMs, gapBefore: false) { _, _, _ in waiting -= 1 }
            settleWaiting = waiting
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
        case .pattern:
            var waiting = settleWaiting
            pattern.push(rrMs, gapBefore: gapBefore) { rr, verdict, gap in
                if waiting > 0 { waiting -= 1 } else { emit(rr, verdict.reason, gap) }
            }
            settleWaiting = waiting
        }
    }

    /// Judges the beats still waiting (the stream ended).
    public mutating func flush(emit: (Double, ArtifactTally.Reason?, Bool) -> Void) {
        guard rule == .pattern else { return }
        var waiting = settleWaiting
        pattern.flush { rr, verdict, gap in
            if waiting > 0 { waiting -= 1 } else { emit(rr, verdict.reason, gap) }
        }
        settleWaiting = waiting
    }
}

/// The artifact rules of RecoveryDeck spec §5.1, applied in the spec's order to each RR interval as it arrives.
///
/// 1. Range: an RR outside 300...2000 ms (both bounds inclusive: 300 and 2000 are kept) is rejected.
/// 2. Successive difference: an in-range RR is rejected when |RR − previous| > 20 % of previous.
///    Exactly 20 % is kept. The test is `5·|RR − previous| > previous`, which is exact for every value the
///    strap can send (multiples of 1000/1024 ms) and for whole milliseconds.
///
/// "Previous RR" is the previous *accepted* RR, with one escape: after `reanchorAfter` (3) consecutive
/// successive-difference rejections, the reference becomes the previous *received* in-range RR until a beat is
/// accepted again. Why: comparing with the last accepted beat keeps an isolated ectopic beat to two rejections
/// (the premature beat and its compensatory pause both disagree with the last normal beat; the next normal
/// beat agrees again). But if the reference itself is the outlier (an artifact accepted as the first beat, or
/// a genuine step in rate), every later beat would disagree with it forever (lock-on). A third disagreement
/// in a row means the reference, not the beats, is out of line, so the next beat is judged against its
/// immediate predecessor and two agreeing beats re-establish the reference.
///
/// The first in-range RR with no reference at all is accepted: the 20 % rule has nothing to compare it with.
/// In a morning the settle beats (`prime`) provide the reference, so the first counted beat is always judged.
///
/// Out-of-range RR neither become the reference nor break a run of rejections.
public struct ArtifactFilter: Sendable {
    /// Why an RR was kept or dropped.
    public enum Verdict: Hashable, Sendable {
        case accepted
        /// Outside 300...2000 ms (rule 1).
        case outOfRange
        /// More than 20 % away from the previous RR (rule 2).
        case successiveDifference
    }

    public static let minimumMs = 300.0
    public static let maximumMs = 2000.0
    /// Consecutive successive-difference rejections after which the reference moves (see the type's notes).
    public static let reanchorAfter = 3

    @usableFromInline var acceptedCount = 0
    @usableFromInline var outOfRangeCount = 0
    @usableFromInline var successiveDifferenceCount = 0

    /// The RR the next in-range beat is compared with: the last accepted (or primed) RR while fewer than
    /// `reanchorAfter` rejections are in a row, else the last rejected in-range RR. Kept as one value, moved when
    /// a beat is accepted or a rejection run reaches the escape, so a beat reads it without choosing.
    /// NaN until there is one: a comparison with NaN is false, so a beat with no reference is accepted.
    @usableFromInline var comparedWith = Double.nan
    @usableFromInline var rejectionRun = 0

    public init() {}

    @inlinable public var accepted: Int { acceptedCount }
    public var rejectedOutOfRange: Int { outOfRangeCount }
    public var rejectedSuccessiveDifference: Int { successiveDifferenceCount }

    public var rejected: Int { rejectedOutOfRange + rejectedSuccessiveDifference }

    /// rejected / (accepted + rejected); 0 when nothing was judged (spec §5.1 step 3).
    public var artifactRatio: Double {
        let total = accepted + rejected
        return total == 0 ? 0 : Double(rejected) / Double(total)
    }

    /// The RR the next in-range beat will be compared with, if any.
    /// (A beat is accepted only after an in-range beat, so no accepted RR implies no in-range RR either.)
    @inlinable public var reference: Double? { comparedWith.isNaN ? nil : comparedWith }

    @inlinable public static func isInRange(_ rrMs: Double) -> Bool { rrMs >= minimumMs && rrMs <= maximumMs }

    /// Judges one RR (ms), counts it, and updates the reference. Always inlined: it is a handful of instructions
    /// on the per-beat path, where a call would cost more than the work.
    @inlinable @inline(__always)
    public mutating func judge(_ rrMs: Double) -> Verdict {
        guard ArtifactFilter.isInRange(rrMs) else {  // NaN lands here too
            outOfRangeCount &+= 1  // counts of beats: wrapping needs 2^63 of them
            return .outOfRange
        }
        let previous = comparedWith
        if 5 * abs(rrMs - previous) > previous {  // false when there is no reference (NaN)
            rejectionRun &+= 1
            successiveDifferenceCount &+= 1
            // From the run's escape on, the next beat is judged against this one (the previous received RR).
            if rejectionRun >= ArtifactFilter.reanchorAfter { comparedWith = rrMs }
            return .successiveDifference
        }
        rejectionRun = 0
        comparedWith = rrMs
        acceptedCount &+= 1
        return .accepted
    }

    /// Uses an RR as reference without counting it (the settle phase: its RR are discarded for rMSSD but the
    /// beat just before the capture is still the right thing to compare the first captured beat with).
    /// An out-of-range RR is ignored.
    @inlinable @inline(__always)
    public mutating func prime(_ rrMs: Double) {
        guard ArtifactFilter.isInRange(rrMs) else { return }
        comparedWith = rrMs
        rejectionRun = 0
    }
}

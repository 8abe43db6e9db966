import RecoveryCore

/// A lasting shift in the level of one morning series (Health Engine README: "change point at 45"), tested
/// with `ShiftTest` as one member of the scan's family. A shift is a statement about one series, not about
/// what goes with it, so it reaches T1 at most: it survives the same false-discovery check and |r| ≥ 0.25
/// floor as an association, and is phrased like a deviation, without a cause.
public struct Shift: Sendable, Equatable {
    public var outcome: Outcome
    public var result: MeanShift
    /// The first day of the new level.
    public var since: LocalDate
    /// Days with a value before and from `since`.
    public var daysBefore: Int
    public var daysAfter: Int
    /// BH q-value within the scan's whole family.
    public var q: Double
    public var survived: Bool

    public var tier: Tier { .t1 }

    /// (after − before) / before × 100.
    public var percent: Double { (result.after - result.before) / abs(result.before) * 100 }

    /// "Your rMSSD has been 12 % lower since 2026-03-14 (52 days, against the 68 days before)."
    public var sentence: String {
        let direction = result.after < result.before ? "lower" : "higher"
        let whole = Int(abs(percent).rounded())
        return "Your \(Wording.label(outcome)) has been \(whole) % \(direction) since \(since) "
            + "(\(daysAfter) days, against the \(daysBefore) days before)."
    }
}

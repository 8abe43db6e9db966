import RecoveryCore

/// What a scan found: the family size, the survivors with their tiers, and what is still waiting for days.
public struct ScanReport: Sendable, Equatable {
    /// N: tests in the questions' family (habit and input associations and shift tests; see `Scan.run`).
    public var tested: Int
    /// Surviving associations after related outcomes are collapsed, highest tier first.
    public var findings: [Finding]
    /// Every association test with r, p, q (both families; `isCheck` says which).
    public var family: [TestedPair]
    /// Every shift test (one per outcome with enough values), surviving or not.
    public var shifts: [Shift]
    /// Analyses that could not run yet.
    public var pending: [Pending]
    /// Distinct days in the data.
    public var days: Int
    /// Tests in the checks' family (pairs related by definition, metrics against each other).
    public var checksTested: Int = 0
    /// Surviving checks, graded like findings but never past T2 when related by definition.
    public var checks: [Finding] = []

    /// M: surviving associations (related outcomes counted once) and surviving shifts, of the questions' family.
    public var survived: Int { findings.count + shifts.filter(\.survived).count }

    /// Health Engine README: the family size sits at the top, before any result. It counts the questions a
    /// person asks (habits and inputs against the morning metrics, shifts), not the checks.
    public var headline: String { "\(tested) tested, \(survived) survived" }

    /// The checks' own count, shown apart from the headline.
    public var checksLine: String {
        "Checks (pairs related by definition, metrics against each other): \(checksTested) tested, "
            + "\(checks.count) survived"
    }
}

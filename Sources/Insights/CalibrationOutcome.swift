/// Rejection counts over the trials of one calibration cell.
public struct CalibrationOutcome: Sendable, Equatable {
    public var settings: CalibrationSettings
    /// Trials that produced a test (a trial is lost only if a series came out constant).
    public var trials: Int
    public var naiveRejections: Int
    public var blockBootstrapRejections: Int
    public var engineRejections: Int
    /// Engine p < α and |r| ≥ floor: what a finding needs before the FDR step.
    public var engineWithFloorRejections: Int
    /// |r| ≥ floor alone, whatever the p-value: the ceiling of any test's power once the floor applies.
    public var floorOnlyRejections: Int
    /// Trials whose engine CI (95 %) contains the true correlation `effect`.
    public var ciCovered: Int = 0

    public var naiveRate: Double { rate(naiveRejections) }
    public var blockBootstrapRate: Double { rate(blockBootstrapRejections) }
    public var engineRate: Double { rate(engineRejections) }
    public var engineWithFloorRate: Double { rate(engineWithFloorRejections) }
    public var floorOnlyRate: Double { rate(floorOnlyRejections) }
    /// Share of trials whose CI contains the true correlation (0.95 when the CI is honest).
    public var ciCoverage: Double { rate(ciCovered) }

    /// Binomial standard error of a rate near `p` at this trial count.
    public func standardError(at p: Double) -> Double { (p * (1 - p) / Double(max(1, trials))).squareRoot() }

    private func rate(_ k: Int) -> Double { trials > 0 ? Double(k) / Double(trials) : 0 }
}

/// The calibration experiment of the Health Engine README: two AR(1) series per trial, independent or
/// correlated at a chosen r, tested by the textbook Pearson test, by the plain null block bootstrap and by
/// the engine's test. Under independence the rejection rate at α is the false-positive rate; with an
/// effect it is the power.
public struct CalibrationSettings: Sendable, Equatable {
    /// Lag-one autocorrelation of both series, in (−1, 1).
    public var rho: Double
    /// Days per series (calendar days, some without a value, when `missing` > 0).
    public var n: Int
    public var trials: Int
    public var resamples: Int
    public var seed: UInt64
    /// Correlation between the two series: y = effect·x + √(1 − effect²)·z with x and z independent AR(1)
    /// of the same ρ, so y is AR(1) too and corr(x_t, y_t) = effect. 0 = independent (null).
    public var effect: Double
    public var alpha: Double
    /// The reporting floor |r| ≥ 0.25 that findings also need (Health Engine: "|r| ≥ 0.25 floor").
    public var floor: Double
    /// Chance that a day has no value (both series lose it): the n days are a calendar with gaps, and the
    /// test sees only the days left, with their dates. 0 = every day present.
    public var missing: Double

    public init(
        rho: Double, n: Int, trials: Int, resamples: Int, seed: UInt64, effect: Double = 0, alpha: Double = 0.05,
        floor: Double = Scan.minimumEffect, missing: Double = 0
    ) {
        self.rho = rho
        self.n = n
        self.trials = trials
        self.resamples = resamples
        self.seed = seed
        self.effect = effect
        self.alpha = alpha
        self.floor = floor
        self.missing = missing
    }

    /// Why the settings cannot run, as one sentence; nil when they can.
    public var problem: String? {
        if !(rho > -1 && rho < 1) { return "rho must lie strictly between -1 and 1" }
        if n < 8 { return "n must be at least 8 days" }
        if trials < 1 { return "trials must be at least 1" }
        if resamples < 10 { return "resamples must be at least 10" }
        if !(effect > -1 && effect < 1) { return "effect must lie strictly between -1 and 1" }
        if !(alpha > 0 && alpha < 1) { return "alpha must lie strictly between 0 and 1" }
        if !(missing >= 0 && missing <= 0.5) { return "missing must lie between 0 and 0.5" }
        return nil
    }
}

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

public enum Calibration {
    /// One AR(1) path: x₀ from the stationary law N(0, 1/(1 − ρ²)), then x_t = ρ·x_{t−1} + ε_t.
    public static func autoregressive(rho: Double, n: Int, rng: inout SeededGenerator) -> [Double] {
        var out = [Double](repeating: 0, count: n)
        guard n > 0 else { return out }
        out[0] = rng.gaussian() / (1 - rho * rho).squareRoot()
        for t in 1..<max(1, n) where t < n { out[t] = rho * out[t - 1] + rng.gaussian() }
        return out
    }

    /// Runs every trial of one cell; trial i draws from its own stream of `seed`, so the counts do not
    /// depend on how `parallel` schedules the trials.
    public static func run(_ settings: CalibrationSettings, parallel: ParallelFor = .serial) -> CalibrationOutcome {
        precondition(settings.problem == nil, settings.problem ?? "")
        let engine = AssociationTest(resamples: settings.resamples, method: .calibrated)
        let plain = AssociationTest(resamples: settings.resamples, method: .blockBootstrap)
        let s = settings
        let verdicts: [(naive: Bool, plain: Bool, engine: Bool, floor: Bool, big: Bool, covered: Bool)?] = parallel.map(
            s.trials
        ) {
            i in
            var rng = SeededGenerator(seed: s.seed, stream: i)
            var x = autoregressive(rho: s.rho, n: s.n, rng: &rng)
            let z = autoregressive(rho: s.rho, n: s.n, rng: &rng)
            let k = (1 - s.effect * s.effect).squareRoot()
            var y = z
            for t in 0..<s.n { y[t] = s.effect * x[t] + k * z[t] }
            var days: [Int]? = nil
            if s.missing > 0 {
                let kept = (0..<s.n).filter { _ in rng.unit() >= s.missing }
                x = kept.map { x[$0] }
                y = kept.map { y[$0] }
                days = kept
            }
            let testSeed = rng.next()
            guard let e = engine.run(x: x, y: y, days: days, seed: testSeed),
                let b = plain.run(x: x, y: y, days: days, seed: testSeed)
            else { return nil }
            let naive = StudentT.pearsonP(r: e.r, n: x.count) < s.alpha
            let big = abs(e.r) >= s.floor
            return (
                naive, b.p < s.alpha, e.p < s.alpha, e.p < s.alpha && big, big,
                e.ciLow <= s.effect && s.effect <= e.ciHigh
            )
        }
        var outcome = CalibrationOutcome(
            settings: s, trials: 0, naiveRejections: 0, blockBootstrapRejections: 0, engineRejections: 0,
            engineWithFloorRejections: 0, floorOnlyRejections: 0)
        for v in verdicts {
            guard let v else { continue }
            outcome.trials += 1
            if v.naive { outcome.naiveRejections += 1 }
            if v.plain { outcome.blockBootstrapRejections += 1 }
            if v.engine { outcome.engineRejections += 1 }
            if v.floor { outcome.engineWithFloorRejections += 1 }
            if v.big { outcome.floorOnlyRejections += 1 }
            if v.covered { outcome.ciCovered += 1 }
        }
        return outcome
    }

    /// The shift test's calibration: `trials` AR(1) series of n values at lag-one autocorrelation ρ, with the
    /// mean moved by `shift` marginal standard deviations after the middle day (0 = no shift: the rejection
    /// rate is the false-positive rate). Counts p < α, and p < α with |r| ≥ `floor` (what a finding needs).
    public static func runShifts(
        rho: Double, n: Int, trials: Int, resamples: Int, seed: UInt64, shift: Double = 0, alpha: Double = 0.05,
        floor: Double = Scan.minimumEffect, parallel: ParallelFor = .serial
    ) -> (trials: Int, rejections: Int, withFloor: Int) {
        let test = ShiftTest(resamples: resamples)
        let step = shift / (1 - rho * rho).squareRoot()
        let verdicts: [(Bool, Bool)?] = parallel.map(trials) { i in
            var rng = SeededGenerator(seed: seed, stream: i)
            var x = autoregressive(rho: rho, n: n, rng: &rng)
            for t in (n / 2)..<n { x[t] += step }
            guard let m = test.run(x, seed: rng.next()) else { return nil }
            return (m.p < alpha, m.p < alpha && abs(m.r) >= floor)
        }
        var out = (trials: 0, rejections: 0, withFloor: 0)
        for v in verdicts {
            guard let v else { continue }
            out.trials += 1
            if v.0 { out.rejections += 1 }
            if v.1 { out.withFloor += 1 }
        }
        return out
    }
}

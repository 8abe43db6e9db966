
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

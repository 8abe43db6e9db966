/// The experiment's calibration (T4): simulated people whose morning outcome is log-normal with AR(1)
/// day-to-day dependence, a history of `history` mornings to plan from, then an experiment of `mornings`
/// mornings in blocks of `block` with a share `missing` of mornings not measured.
///
/// - Without an effect, the share of experiments whose randomisation test gives p < 0.05 is the false-positive
///   rate; it must be 0.05 up to Monte Carlo error whatever ρ is (the test is exact under the sharp null).
/// - With `planted` true, every habit morning is lowered by the change the person's own plan (made from their
///   history, `ExperimentPower`) promised to detect with 80 % power; the share detected is compared with 0.80.
public enum ExperimentCalibration {
    public struct Settings: Sendable, Equatable {
        public var rho: Double
        public var mornings: Int
        public var block: Int
        public var trials: Int
        public var redraws: Int
        public var seed: UInt64
        public var planted: Bool
        public var missing: Double
        public var history: Int

        public init(
            rho: Double, mornings: Int, block: Int = RandomisationScheme.defaultBlock, trials: Int = 1000,
            redraws: Int = 999, seed: UInt64 = 1, planted: Bool = false, missing: Double = 0.1, history: Int = 60
        ) {
            self.rho = rho
            self.mornings = mornings
            self.block = block
            self.trials = trials
            self.redraws = redraws
            self.seed = seed
            self.planted = planted
            self.missing = missing
            self.history = history
        }
    }

    public struct Outcome: Sendable, Equatable {
        public var trials: Int
        public var rejections: Int
        /// Mean over trials of the change the plan promised to detect (ms) and of the plan's power for the planted
        /// change (0.80 by construction, less the missed mornings the plan assumes away).
        public var meanPromisedChange: Double
        /// Trials whose 95 % CI held the true change (0 or the planted one).
        public var covered: Int

        public var rate: Double { trials > 0 ? Double(rejections) / Double(trials) : 0 }
        public var coverage: Double { trials > 0 ? Double(covered) / Double(trials) : 0 }
        /// Binomial SE of a rate near `p`.
        public func standardError(at p: Double) -> Double { (p * (1 - p) / Double(max(1, trials))).squareRoot() }
    }

    /// rMSSD of a synthetic person: exp(ln 55 ms + 0.25·x_t), x a unit-variance AR(1) (a 25 % day-to-day CV).
    static func morning(_ x: Double) -> Double { 55 * exponential(0.25 * x) }

    public static func run(_ s: Settings, parallel: ParallelFor = .serial) -> Outcome {
        let scheme = RandomisationScheme(mornings: s.mornings, block: s.block)
        precondition(scheme.problem == nil, scheme.problem ?? "")
        let verdicts: [(rejected: Bool, change: Double, covered: Bool)?] = parallel.map(s.trials) { i in
            var rng = SeededGenerator(seed: s.seed, stream: i)
            let path = Calibration.autoregressive(rho: s.rho, n: s.history + s.mornings, rng: &rng)
            let series = path.map { x in morning(x * (1 - s.rho * s.rho).squareRoot()) }
            let historyDays = (0..<s.history).filter { _ in rng.unit() >= s.missing }
            guard
                let plan = ExperimentPower.estimate(
                    values: historyDays.map { series[$0] }, days: historyDays)
            else { return nil }
            let change = s.planted ? -plan.detectable(mornings: s.mornings, block: s.block) : 0
            let arms = scheme.draw(seed: rng.next())
            var mornings: [ExperimentMorning] = []
            for t in 0..<s.mornings {
                let measured = rng.unit() >= s.missing
                let value = series[s.history + t] + (arms[t] == .habit ? change : 0)
                mornings.append(ExperimentMorning(arm: arms[t], outcome: measured ? value : nil, didHabit: nil))
            }
            guard let result = ExperimentAnalysis.run(mornings, scheme: scheme, seed: rng.next(), redraws: s.redraws)
            else { return nil }
            let c = result.byAssignment
            return ((c.p ?? 1) < ExperimentAnalysis.alpha, abs(change), c.ciLow <= change && change <= c.ciHigh)
        }
        var out = Outcome(trials: 0, rejections: 0, meanPromisedChange: 0, covered: 0)
        for v in verdicts {
            guard let v else { continue }
            out.trials += 1
            if v.rejected { out.rejections += 1 }
            if v.covered { out.covered += 1 }
            out.meanPromisedChange += v.change
        }
        out.meanPromisedChange /= Double(max(1, out.trials))
        return out
    }
}

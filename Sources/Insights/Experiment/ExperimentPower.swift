/// What an experiment of N mornings can detect, from the person's own history of the outcome (T4 plan).
///
/// The statistic is the difference in means, habit minus without, over N mornings with N/2 in each arm. Writing
/// it as Σ c_t y_t with c_t = ±2/N, its variance over the permuted-block randomisation and over the person's
/// day-to-day variation (SD σ, autocorrelation ρ(d) at a distance of d days) is
///
///     Var = Σ_s Σ_t E[c_s c_t] σ² ρ(|s−t|),
///
/// with E[c_t²] = 4/N², E[c_s c_t] = −(4/N²)/(K − 1) for two nights of one block of K (half of the other K − 1
/// nights share the arm) and 0 across blocks (independent blocks). Because the c's of a block sum to zero,
/// σ²ρ(d) may be replaced by −γ(d), the semivariogram γ(d) = σ²(1 − ρ(d)) = ½E[(y_{t+d} − y_t)²]:
///
///     Var = (4/N²)·(N/K)/(K − 1) · Σ_{s≠t in a block} γ(|s−t|) = (8/N)/(K(K − 1)) · Σ_{d=1}^{K−1} (K − d)·γ(d).
///
/// Only the person's day-to-day changes over 1 … K − 1 days enter, and they are estimated directly from the
/// history (mean of ½(y_{t+d} − y_t)² over the pairs of days present), which is unbiased for a stationary series
/// whatever its autocorrelation; σ and ρ(1) are shown to the person as the plain summary of the same thing. At
/// K = 2 it is the paired design's σ²(4/N)(1 − ρ(1)). Missed mornings at the history's rate widen the SE by
/// 1/√(1 − share). Power for a true change δ is that of a t statistic with the measured mornings − 2 degrees
/// of freedom, P(T > t₀.₉₇₅ − |δ|/SE); the smallest change detectable at 80 % is (t₀.₉₇₅ + t₀.₈₀)·SE. The
/// randomisation test is what decides; the calibration (`insights-bench experiment`) checks its power against
/// this promise on simulated people.
public struct ExperimentPower: Sendable, Equatable {
    /// z for a two-sided α of 0.05 (the per-protocol interval's normal approximation).
    public static let zAlpha = 1.959_963_985
    /// Days of history with a value before a plan is made (Health Engine README: "baseline and deviation at 21").
    public static let historyFloor = Floors.deviation

    /// Mean of the outcome over the history (for "% of your rMSSD").
    public var mean: Double
    /// Day-to-day SD of the outcome.
    public var sd: Double
    /// Lag-one autocorrelation, 1 − γ(1)/σ² (shown; the SE uses γ itself).
    public var rho: Double
    /// γ(1), γ(2), …: half the mean squared change over d days, from the history.
    public var semivariogram: [Double]
    /// Days of history the estimates came from.
    public var days: Int
    /// Share of calendar days in the history's span without a value.
    public var missingShare: Double

    public init(mean: Double, sd: Double, semivariogram: [Double], days: Int, missingShare: Double = 0) {
        self.mean = mean
        self.sd = sd
        self.semivariogram = semivariogram
        self.days = days
        self.missingShare = missingShare
        rho = sd > 0 && !semivariogram.isEmpty ? 1 - semivariogram[0] / (sd * sd) : 0
    }

    /// Longest block a plan may use: γ is estimated out to this many days.
    public static let maximumBlock = 14

    /// Estimates from the outcome's values on day numbers `days` (increasing); nil below the floor, when the
    /// values never vary, or when some distance up to `maximumBlock − 1` days has fewer than 10 pairs.
    public static func estimate(values: [Double], days: [Int]) -> ExperimentPower? {
        guard values.count >= historyFloor, let first = days.first, let last = days.last else { return nil }
        var mean = 0.0
        for v in values { mean += v }
        mean /= Double(values.count)
        var ss = 0.0
        for v in values { ss += (v - mean) * (v - mean) }
        let sd = (ss / Double(values.count - 1)).squareRoot()
        guard sd > 0 else { return nil }
        var byDay: [Int: Double] = [:]
        for (v, d) in zip(values, days) { byDay[d] = v }
        var gamma: [Double] = []
        for lag in 1..<maximumBlock {
            var sum = 0.0
            var pairs = 0
            for (d, v) in byDay {
                guard let w = byDay[d + lag] else { continue }
                sum += (w - v) * (w - v) / 2
                pairs += 1
            }
            guard pairs >= 10 else { break }
            gamma.append(sum / Double(pairs))
        }
        guard !gamma.isEmpty else { return nil }
        let span = Double(last - first + 1)
        return ExperimentPower(
            mean: mean, sd: sd, semivariogram: gamma, days: values.count,
            missingShare: 1 - Double(values.count) / span)
    }

    /// True when the history reaches far enough for blocks of `k`.
    public func supports(block k: Int) -> Bool { k - 1 <= semivariogram.count }

    /// SE of the difference in means for N mornings in blocks of K, with mornings missed at the history's rate.
    /// The analysis compares arms within blocks (`ExperimentAnalysis.withinBlocks`), where a block weighs
    /// n_h·n_w/(n_h + n_w) (K/4 when whole); the SE grows by √(K/4 ÷ E[weight]), the expectation over each
    /// morning missed independently at the history's rate. (A block of 4 missing one morning keeps 2/3 of its
    /// weight, not 3/4: a plain 1/√(1 − share) promised power the simulated people did not get.)
    public func standardError(mornings n: Int, block k: Int) -> Double {
        standardErrorAllMeasured(mornings: n, block: k) * ExperimentPower.missedMorningFactor(missingShare, block: k)
    }

    static func missedMorningFactor(_ missed: Double, block k: Int) -> Double {
        guard missed > 0 else { return 1 }
        let half = k / 2
        let kept = 1 - min(0.95, missed)
        // P(n of `half` mornings measured) = C(half, n) kept^n missed^(half−n).
        var probability = [Double](repeating: 0, count: half + 1)
        for n in 0...half {
            var c = 1.0
            for i in 0..<n { c = c * Double(half - i) / Double(i + 1) }
            var v = c
            for _ in 0..<n { v *= kept }
            for _ in 0..<(half - n) { v *= 1 - kept }
            probability[n] = v
        }
        var weight = 0.0
        for a in 1...half {
            for b in 1...half { weight += probability[a] * probability[b] * Double(a * b) / Double(a + b) }
        }
        return (Double(k) / 4 / weight).squareRoot()
    }

    /// The same with every morning measured.
    public func standardErrorAllMeasured(mornings n: Int, block k: Int) -> Double {
        precondition(n >= 2 && k >= 2 && n % k == 0 && supports(block: k), "ExperimentPower: N whole even blocks")
        var sum = 0.0
        for d in 1..<k { sum += Double(k - d) * semivariogram[d - 1] }
        return (8 / Double(n) / Double(k * (k - 1)) * sum).squareRoot()
    }

    /// Degrees of freedom of the t approximation: the mornings expected to be measured, less two.
    func degreesOfFreedom(_ n: Int) -> Double { max(2, Double(n) * (1 - missingShare) - 2) }

    /// The smallest true change N mornings detect with 80 % power at α 0.05 (two-sided).
    public func detectable(mornings n: Int, block k: Int) -> Double {
        let df = degreesOfFreedom(n)
        return (StudentT.quantile(0.975, df: df) + StudentT.quantile(0.80, df: df))
            * standardError(mornings: n, block: k)
    }

    /// Power to detect a true change `effect` (in the outcome's unit).
    public func power(effect: Double, mornings n: Int, block k: Int) -> Double {
        let se = standardError(mornings: n, block: k)
        guard se > 0 else { return 1 }
        let df = degreesOfFreedom(n)
        return StudentT.upperTail(StudentT.quantile(0.975, df: df) - abs(effect) / se, df: df)
    }

    /// The fewest mornings (a whole number of blocks, up to a year) that detect `effect` with 80 % power; nil
    /// when a year is not enough.
    public func morningsNeeded(effect: Double, block k: Int) -> Int? {
        var n = k
        while n <= RandomisationScheme.mornings.upperBound {
            if n >= RandomisationScheme.mornings.lowerBound, power(effect: effect, mornings: n, block: k) >= 0.8 - 1e-6
            {
                return n
            }
            n += k
        }
        return nil
    }
}

extension StudentT {
    /// P(T > t) for T ~ t(df).
    public static func upperTail(_ t: Double, df: Double) -> Double {
        let half = twoSidedP(t: t, df: df) / 2
        return t >= 0 ? half : 1 - half
    }

    /// The p-quantile of t(df), by bisection on `upperTail` (monotone), to 1e-10.
    public static func quantile(_ p: Double, df: Double) -> Double {
        var low = -50.0
        var high = 50.0
        for _ in 0..<80 {
            let mid = (low + high) / 2
            if 1 - upperTail(mid, df: df) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }
}

/// The test for one lasting shift in the mean of a daily series (Health Engine README: "change point at 45").
///
/// - Statistic: the self-normalised CUSUM of Shao & Zhang (2010, JASA 105:1228, "Testing for change points in
///   time series"), G = max_k T(k)² / V(k), where T(k) = (S_k − (k/n)·S_n)/√n is the CUSUM at a split after k
///   values and V(k) sums the squared within-segment partial sums of both segments about their own means
///   (divided by n²). Dividing by V(k) instead of by an estimated long-run variance makes G free of the
///   series' scale and, asymptotically, of its autocorrelation, without choosing a bandwidth. Splits leave at
///   least `minimumSegment(n)` values on each side.
/// - p-value: a parametric AR(1) bootstrap. G's null distribution is drawn from B AR(1) series of the same
///   length with φ = ρ̂₁ + (1 + 3ρ̂₁)/n (the lag-one autocorrelation of the whole series with Kendall's 1954
///   small-sample bias correction, clamped to [0, 0.95]); p = (1 + #{G* ≥ G}) / (B + 1). Self-normalisation
///   alone over-rejects at n = 45, ρ = 0.7 (0.16 against iid critical values); the AR(1) null fixes the
///   small-sample part. ρ̂₁ is taken over the whole series, so a real shift inflates it and costs power rather
///   than calibration.
/// - Effect size: r of the values against the indicator "after the split" (point-biserial), so the findings'
///   floor |r| ≥ 0.25 means the same thing here as for an association.
/// Days without a value are out of the series (missing is missing); the values are taken in date order.
public struct ShiftTest: Sendable {
    public var resamples: Int

    public init(resamples: Int = 2000) {
        precondition(resamples >= 10, "ShiftTest: at least 10 resamples")
        self.resamples = resamples
    }

    /// Values on each side of a split, at least 7 and at least a tenth of the series: a "shift" of a few days
    /// at either end is a deviation (T0), not a change of level.
    public static func minimumSegment(_ n: Int) -> Int { max(7, (n + 9) / 10) }

    /// Tests the series (values in date order). nil when it is too short for two segments or constant.
    public func run(_ x: [Double], seed: UInt64) -> MeanShift? {
        let n = x.count
        let m = ShiftTest.minimumSegment(n)
        guard n >= 2 * m, let (statistic, split) = ShiftTest.statistic(x, minimumSegment: m) else { return nil }
        var mean = 0.0
        for v in x { mean += v }
        mean /= Double(n)
        var c0 = 0.0
        var c1 = 0.0
        for t in 0..<n {
            c0 += (x[t] - mean) * (x[t] - mean)
            if t > 0 { c1 += (x[t] - mean) * (x[t - 1] - mean) }
        }
        guard c0 > 0 else { return nil }
        let lagOne = c1 / c0
        let phi = min(0.95, max(0, lagOne + (1 + 3 * lagOne) / Double(n)))

        var rng = SeededGenerator(seed: seed)
        var exceed = 0
        var draws = 0
        var scratch = Scratch(n: n)
        var null = [Double](repeating: 0, count: n)
        let innovationScale = 1 / (1 - phi * phi).squareRoot()
        for _ in 0..<resamples {
            // An AR(1) path as in `Calibration.autoregressive`, into a reused buffer.
            null[0] = rng.gaussian() * innovationScale
            for t in 1..<n { null[t] = phi * null[t - 1] + rng.gaussian() }
            guard let (g, _) = ShiftTest.statistic(null, minimumSegment: m, scratch: &scratch) else { continue }
            draws += 1
            if g >= statistic { exceed += 1 }
        }
        guard draws > 0 else { return nil }

        var before = 0.0
        for t in 0..<split { before += x[t] }
        before /= Double(split)
        var after = 0.0
        for t in split..<n { after += x[t] }
        after /= Double(n - split)
        let share = Double(n - split) / Double(n)
        // Point-biserial r = (after − before)·√(share·(1 − share)) / SD, with SD over all n values.
        let r = (after - before) * (share * (1 - share)).squareRoot() / (c0 / Double(n)).squareRoot()
        return MeanShift(
            statistic: statistic, split: split, n: n, before: before, after: after, r: r,
            p: Double(1 + exceed) / Double(draws + 1), phi: phi, resamples: draws)
    }

    /// G = max over splits k in [m, n − m] of T(k)²/V(k), and the k (values before the split) that attains it.
    /// O(n) with prefix sums: Σ_{t≤k} (S_t − (t/k)S_k)² = Σ S_t² − 2(S_k/k) Σ t·S_t + (S_k/k)² Σ t², and the
    /// same for the right segment with partial sums taken from the end.
    public static func statistic(_ x: [Double], minimumSegment m: Int) -> (Double, Int)? {
        var scratch = Scratch(n: x.count)
        return statistic(x, minimumSegment: m, scratch: &scratch)
    }

    /// Prefix-sum buffers, reused across the resamples of one test.
    struct Scratch {
        var s: [Double]
        var r: [Double]
        var s2: [Double]
        var ts: [Double]
        var r2: [Double]
        var ur: [Double]
        var tt: [Double]

        init(n: Int) {
            s = [Double](repeating: 0, count: n + 1)
            r = s
            s2 = s
            ts = s
            r2 = s
            ur = s
            tt = s
            for t in stride(from: 1, through: n, by: 1) { tt[t] = tt[t - 1] + Double(t) * Double(t) }
        }
    }

    static func statistic(_ x: [Double], minimumSegment m: Int, scratch: inout Scratch) -> (Double, Int)? {
        let n = x.count
        guard n >= 2 * m, m >= 1, scratch.s.count == n + 1 else { return nil }
        var mean = 0.0
        for v in x { mean += v }
        mean /= Double(n)
        // S_t = sum of the first t centred values; R_u = sum of the last u.
        for t in 1...n {
            let d = Double(t)
            let st = scratch.s[t - 1] + (x[t - 1] - mean)
            let ru = scratch.r[t - 1] + (x[n - t] - mean)
            scratch.s[t] = st
            scratch.r[t] = ru
            scratch.s2[t] = scratch.s2[t - 1] + st * st
            scratch.ts[t] = scratch.ts[t - 1] + d * st
            scratch.r2[t] = scratch.r2[t - 1] + ru * ru
            scratch.ur[t] = scratch.ur[t - 1] + d * ru
        }
        let fn = Double(n)
        var best = -1.0
        var bestK = m
        for k in m...(n - m) {
            let a = scratch.s[k] / Double(k)
            let left = scratch.s2[k] - 2 * a * scratch.ts[k] + a * a * scratch.tt[k]
            let u = n - k
            let b = scratch.r[u] / Double(u)
            let right = scratch.r2[u] - 2 * b * scratch.ur[u] + b * b * scratch.tt[u]
            let v = (left + right) / (fn * fn)
            guard v > 0 else { continue }
            let cusum = scratch.s[k]  // S_k − (k/n)·S_n, and S_n = 0 after centring
            let g = cusum * cusum / fn / v
            if g > best {
                best = g
                bestK = k
            }
        }
        guard best >= 0 else { return nil }
        return (best, bestK)
    }
}

/// The outcome of one shift test.
public struct MeanShift: Sendable, Equatable {
    /// Shao–Zhang's G at the best split.
    public var statistic: Double
    /// Values before the split (the first value of the new level is at index `split`).
    public var split: Int
    public var n: Int
    /// Mean before and from the split.
    public var before: Double
    public var after: Double
    /// Point-biserial r of the values against "after the split".
    public var r: Double
    public var p: Double
    /// The AR(1) coefficient the null series were drawn with.
    public var phi: Double
    public var resamples: Int
}

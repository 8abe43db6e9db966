/// Autocorrelation of a daily series and its integrated autocorrelation time.
///
/// The estimator is the biased one, ρ̂(k) = Σ_{t<n−k} (x_t − x̄)(x_{t+k} − x̄) / Σ_t (x_t − x̄)², as in
/// emcee's `autocorr.function_1d` (Foreman-Mackey et al.) and the Health Engine README: it divides every
/// lag by the same n, which keeps the sequence positive semi-definite and its tail small.
public enum Autocorrelation {
    /// ρ̂(0...maxLag); nil when the series is constant (no variance, no correlation to speak of).
    public static func function(_ x: [Double], maxLag: Int) -> [Double]? {
        let n = x.count
        guard n >= 2 else { return nil }
        var mean = 0.0
        for v in x { mean += v }
        mean /= Double(n)
        let centred = x.map { $0 - mean }
        var c0 = 0.0
        for v in centred { c0 += v * v }
        guard c0 > 0 else { return nil }
        let top = min(maxLag, n - 1)
        var rho = [Double](repeating: 0, count: top + 1)
        rho[0] = 1
        centred.withUnsafeBufferPointer { c in
            for k in stride(from: 1, through: top, by: 1) {
                var s = 0.0
                for t in 0..<(n - k) { s += c[t] * c[t + k] }
                rho[k] = s / c0
            }
        }
        return rho
    }

    /// The integrated autocorrelation time with Sokal's automatic window: τ(M) = 1 + 2 Σ_{k=1..M} ρ̂(k),
    /// and M is the smallest lag with M ≥ c·τ(M) (Sokal 1997, "Monte Carlo methods in statistical
    /// mechanics", §3; c = 5 as in emcee's `integrated_time`). If no lag satisfies it, M = n − 1.
    public static func integratedTime(_ x: [Double], c: Double = 5) -> IntegratedTime? {
        let n = x.count
        guard n >= 2 else { return nil }
        return sokalWindow(lastLag: n - 1, c: c) { maxLag in function(x, maxLag: maxLag) }
    }

    /// The same on the calendar: `x[i]` was observed on day number `days[i]` (strictly increasing), and the
    /// days in between have no value. Lag k is k calendar days, and only pairs of days that both have a value
    /// enter it (missing is missing: nothing is filled, and two values either side of a gap are not
    /// neighbours). Over a span of T days with n values and N_k present pairs at lag k,
    ///
    ///     ρ̂(k) = (1 − k/T) · [Σ_pairs (x_t − x̄)(x_{t+k} − x̄) / N_k] / [Σ (x_t − x̄)² / n],
    ///
    /// the mean product per present pair, shrunk by (1 − k/T) as the biased estimator shrinks lag k by
    /// (1 − k/n). Without gaps (T = n, N_k = n − k) it is exactly `function`. nil when x is constant.
    public static func calendarFunction(_ x: [Double], days: [Int], maxLag: Int) -> CalendarCorrelation? {
        let n = x.count
        precondition(days.count == n, "Autocorrelation: one day number per value")
        guard n >= 2, let first = days.first, let last = days.last else { return nil }
        let span = last - first + 1
        var mean = 0.0
        for v in x { mean += v }
        mean /= Double(n)
        var values = [Double](repeating: 0, count: span)
        var present = [Bool](repeating: false, count: span)
        var c0 = 0.0
        for (v, d) in zip(x, days) {
            let t = d - first
            precondition(t >= 0 && t < span && !present[t], "Autocorrelation: day numbers must increase")
            values[t] = v - mean
            present[t] = true
            c0 += (v - mean) * (v - mean)
        }
        guard c0 > 0 else { return nil }
        let top = min(maxLag, span - 1)
        var rho = [Double](repeating: 0, count: top + 1)
        var pairs = [Int](repeating: 0, count: top + 1)
        rho[0] = 1
        pairs[0] = n
        let perValue = c0 / Double(n)
        for k in stride(from: 1, through: top, by: 1) {
            var s = 0.0
            var count = 0
            for t in 0..<(span - k) where present[t] && present[t + k] {
                s += values[t] * values[t + k]
                count += 1
            }
            pairs[k] = count
            if count > 0 { rho[k] = (1 - Double(k) / Double(span)) * (s / Double(count)) / perValue }
        }
        return CalendarCorrelation(rho: rho, pairs: pairs, span: span, count: n)
    }

    /// τ_int over calendar lags (see `calendarFunction`), with the same Sokal window, and the autocorrelation
    /// it was computed from.
    public static func integratedTime(_ x: [Double], days: [Int], c: Double = 5)
        -> (time: IntegratedTime, correlation: CalendarCorrelation)?
    {
        guard x.count >= 2, let first = days.first, let last = days.last else { return nil }
        var latest: CalendarCorrelation?
        let time = sokalWindow(lastLag: last - first, c: c) { maxLag in
            latest = calendarFunction(x, days: days, maxLag: maxLag)
            return latest?.rho
        }
        guard let time, let latest else { return nil }
        return (time, latest)
    }

    /// Sokal's automatic window over ρ̂(0...maxLag) from `acf`, growing the computed lags until the window
    /// closes (a window rarely exceeds a few dozen lags) or `lastLag` is reached.
    private static func sokalWindow(lastLag: Int, c: Double, acf: (Int) -> [Double]?) -> IntegratedTime? {
        guard lastLag >= 1 else { return nil }
        var maxLag = min(lastLag, 64)
        while true {
            guard let rho = acf(maxLag) else { return nil }
            var tau = 1.0
            for m in 1...maxLag {
                tau += 2 * rho[m]
                if Double(m) >= c * tau { return IntegratedTime(tau: tau, window: m, rho: Array(rho[0...m])) }
            }
            if maxLag == lastLag { return IntegratedTime(tau: tau, window: lastLag, rho: rho) }
            maxLag = min(lastLag, maxLag * 4)
        }
    }
}

/// Autocorrelation over calendar lags of a series with missing days (see `Autocorrelation.calendarFunction`).
public struct CalendarCorrelation: Sendable, Equatable {
    /// ρ̂(0...maxLag) over calendar lags.
    public var rho: [Double]
    /// N_k: pairs of days k apart that both have a value (N_0 = n).
    public var pairs: [Int]
    /// T: days from the first value to the last, inclusive.
    public var span: Int
    /// n: days with a value.
    public var count: Int
}

/// τ_int of one series, the Sokal window that produced it, and ρ̂(0...window).
public struct IntegratedTime: Sendable, Equatable {
    public var tau: Double
    public var window: Int
    public var rho: [Double]
}

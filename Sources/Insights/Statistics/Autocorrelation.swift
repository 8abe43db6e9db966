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
        // Grow the computed lags until the window closes; a window rarely exceeds a few dozen lags.
        var maxLag = min(n - 1, 64)
        while true {
            guard let rho = function(x, maxLag: maxLag) else { return nil }
            var tau = 1.0
            for m in 1...maxLag {
                tau += 2 * rho[m]
                if Double(m) >= c * tau { return IntegratedTime(tau: tau, window: m, rho: Array(rho[0...m])) }
            }
            if maxLag == n - 1 { return IntegratedTime(tau: tau, window: n - 1, rho: rho) }
            maxLag = min(n - 1, maxLag * 4)
        }
    }
}

/// τ_int of one series, the Sokal window that produced it, and ρ̂(0...window).
public struct IntegratedTime: Sendable, Equatable {
    public var tau: Double
    public var window: Int
    public var rho: [Double]
}

/// Student's t distribution, for the textbook Pearson test the engine is compared against
/// (t = r·√(n−2)/√(1−r²) with n − 2 degrees of freedom).
public enum StudentT {
    /// P(|T| ≥ |t|) for T ~ t(df): the regularised incomplete beta I_{df/(df+t²)}(df/2, 1/2).
    public static func twoSidedP(t: Double, df: Double) -> Double {
        guard df > 0 else { return 1 }
        let x = df / (df + t * t)
        return min(1, max(0, incompleteBeta(a: df / 2, b: 0.5, x: x)))
    }

    /// The two-sided p-value of the textbook test of r = 0 on n independent pairs.
    public static func pearsonP(r: Double, n: Int) -> Double {
        guard n > 2 else { return 1 }
        guard abs(r) < 1 else { return 0 }
        let df = Double(n - 2)
        return twoSidedP(t: r * (df / (1 - r * r)).squareRoot(), df: df)
    }

    /// Regularised incomplete beta by its continued fraction (modified Lentz), using the symmetry
    /// I_x(a, b) = 1 − I_{1−x}(b, a) where the fraction converges slowly (Abramowitz & Stegun 26.5.8).
    static func incompleteBeta(a: Double, b: Double, x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * naturalLog(x) + b * naturalLog(1 - x)
        if x < (a + 1) / (a + b + 2) {
            return exponential(lnFront) * continuedFraction(a: a, b: b, x: x) / a
        }
        return 1 - exponential(lnFront) * continuedFraction(a: b, b: a, x: 1 - x) / b
    }

    private static func continuedFraction(a: Double, b: Double, x: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...300 {
            let m2 = Double(2 * m)
            let md = Double(m)
            var aa = md * (b - md) * x / ((a + m2 - 1) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + md) * (a + b + md) * x / ((a + m2) * (a + m2 + 1))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return h
    }
}

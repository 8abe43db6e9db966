/// Block length for the block bootstrap of a series of n days with integrated autocorrelation time τ:
/// L = round(τ · n^(1/3)), clamped to [2, n/4] (Health Engine README: the 1/e rule gives L = 3 at
/// ρ = 0.7, far too short; τ_int scaled by the n^(1/3) rate of Künsch / Hall–Horowitz–Jing keeps the
/// dependence). n/4 leaves at least four blocks to recombine.
public func blockLength(tau: Double, n: Int) -> Int {
    let upper = max(2, n / 4)
    let raw = (tau * cubeRoot(Double(n))).rounded()
    guard raw.isFinite else { return upper }
    return min(upper, max(2, Int(raw)))
}

/// Pearson's product-moment correlation of paired values; nil when either side has no variance or
/// there are fewer than three pairs (nothing a person should be told about).
public func pearson(_ x: [Double], _ y: [Double]) -> Double? {
    precondition(x.count == y.count, "pearson: paired series of unequal length")
    let n = x.count
    guard n >= 3 else { return nil }
    let (mx, my) = means(x, y)
    var sxy = 0.0
    var sxx = 0.0
    var syy = 0.0
    for i in 0..<n {
        let dx = x[i] - mx
        let dy = y[i] - my
        sxy += dx * dy
        sxx += dx * dx
        syy += dy * dy
    }
    guard sxx > 0, syy > 0 else { return nil }
    return max(-1, min(1, sxy / (sxx * syy).squareRoot()))
}

/// The means of two paired series, summed in index order.
func means(_ x: [Double], _ y: [Double]) -> (x: Double, y: Double) {
    var mx = 0.0
    var my = 0.0
    for i in 0..<x.count {
        mx += x[i]
        my += y[i]
    }
    return (mx / Double(x.count), my / Double(x.count))
}

/// The partial correlation of x and y given z, from the three pairwise correlations; nil when z
/// explains x or y entirely.
public func partialCorrelation(xy: Double, xz: Double, yz: Double) -> Double? {
    let d = (1 - xz * xz) * (1 - yz * yz)
    guard d > 1e-12 else { return nil }
    return (xy - xz * yz) / d.squareRoot()
}

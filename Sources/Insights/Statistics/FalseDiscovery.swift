/// Benjamini–Hochberg step-up adjustment over one scan's whole family (Benjamini & Hochberg 1995;
/// Health Engine: "BH-FDR at q = 0.10", family defined per scan).
///
/// The q-values follow statsmodels' `multipletests(method='fdr_bh')` exactly: sort the p-values,
/// q_(i) = p_(i)·m / i, then make them monotone from the largest rank down (running minimum), cap at 1,
/// and return them in the input order. A test survives at level α when q ≤ α.
public func benjaminiHochbergQValues(_ pValues: [Double]) -> [Double] {
    let m = pValues.count
    guard m > 0 else { return [] }
    // Stable sort by p so equal p-values keep their input order, as numpy's mergesort does.
    let order = pValues.indices.sorted { a, b in
        pValues[a] < pValues[b] || (pValues[a] == pValues[b] && a < b)
    }
    var sortedQ = [Double](repeating: 0, count: m)
    for (rank, index) in order.enumerated() {
        sortedQ[rank] = pValues[index] * Double(m) / Double(rank + 1)
    }
    var running = Double.infinity
    for rank in stride(from: m - 1, through: 0, by: -1) {
        running = min(running, sortedQ[rank])
        sortedQ[rank] = min(running, 1)
    }
    var q = [Double](repeating: 0, count: m)
    for (rank, index) in order.enumerated() { q[index] = sortedQ[rank] }
    return q
}

/// Running time-domain HRV over accepted RR intervals, one O(1) step per beat (RecoveryDeck spec §5.1).
///
/// - rMSSD = sqrt(Σ(RRᵢ₊₁ − RRᵢ)² / (N − 1)): the mean of the N − 1 squared successive differences of the
///   accepted list, as pyhrv's `rmssd` and hrv-analysis compute it. Successive means successive in the
///   accepted list: a rejected beat between two accepted ones is not interpolated.
/// - mean HR = 60000 / mean RR (the spec's formula; pyhrv and hrv-analysis report the mean of 60000/RRᵢ
///   instead, which is larger by Jensen's inequality).
/// - SDNN is the sample standard deviation (divisor N − 1), as pyhrv's `sdnn` (ddof = 1) and hrv-analysis
///   compute it. Sums are taken around the first interval (shifted data), which keeps the variance accurate
///   without cancellation and costs no division per beat.
/// Values that need two intervals are nil with fewer (missing, never zero).
public struct HRVAccumulator: Hashable, Sendable {
    @usableFromInline var n = 0
    @usableFromInline var sum = 0.0
    @usableFromInline var shift = 0.0
    @usableFromInline var shiftedSum = 0.0
    @usableFromInline var shiftedSquares = 0.0
    @usableFromInline var squaredDifferences = 0.0
    @usableFromInline var last = 0.0

    public init() {}

    /// Number of intervals added.
    @inlinable public var count: Int { n }
    /// Sum of the intervals in ms (the spec's "physiological 60 s").
    @inlinable public var sumMs: Double { sum }

    @inlinable
    public mutating func add(_ rrMs: Double) {
        if n == 0 {
            shift = rrMs
        } else {
            let d = rrMs - last
            squaredDifferences += d * d
        }
        let s = rrMs - shift
        shiftedSum += s
        shiftedSquares += s * s
        sum += rrMs
        last = rrMs
        n += 1
    }

    var mean: Double { shift + shiftedSum / Double(n) }

    public var rmssdMs: Double? { count >= 2 ? (squaredDifferences / Double(count - 1)).squareRoot() : nil }
    public var meanRRMs: Double? { count >= 1 ? mean : nil }
    public var meanHRBpm: Double? { count >= 1 ? 60_000 / mean : nil }
    public var sdnnMs: Double? {
        guard n >= 2 else { return nil }
        let variance = (shiftedSquares - shiftedSum * shiftedSum / Double(n)) / Double(n - 1)
        return max(0, variance).squareRoot()
    }

    /// The metrics with the filter's counts.
    public func metrics(rejected: Int) -> HRVMetrics {
        let total = count + rejected
        return HRVMetrics(
            rmssdMs: rmssdMs, meanRRMs: meanRRMs, meanHRBpm: meanHRBpm, sdnnMs: sdnnMs, accepted: count,
            rejected: rejected, artifactRatio: total == 0 ? 0 : Double(rejected) / Double(total))
    }
}

/// Running time-domain HRV over accepted RR intervals, one O(1) step per beat (RecoveryDeck spec §5.1).
///
/// - rMSSD = sqrt(Σ(RRᵢ₊₁ − RRᵢ)² / (N − 1)): the mean of the N − 1 squared successive differences of the
///   accepted list, as pyhrv's `rmssd` and hrv-analysis compute it. Successive means successive in the
///   accepted list: a rejected beat between two accepted ones is not interpolated.
/// - mean HR = 60000 / mean RR (the spec's formula; pyhrv and hrv-analysis report the mean of 60000/RRᵢ
///   instead, which is larger by Jensen's inequality).
/// - SDNN is the sample standard deviation (divisor N − 1), as pyhrv's `sdnn` (ddof = 1) and hrv-analysis
///   compute it. Mean and variance use Welford's update, which stays accurate over hours of beats.
/// Values that need two intervals are nil with fewer (missing, never zero).
public struct HRVAccumulator: Hashable, Sendable {
    @usableFromInline var n = 0
    @usableFromInline var sum = 0.0
    @usableFromInline var mean = 0.0
    @usableFromInline var m2 = 0.0
    @usableFromInline var squaredDifferences = 0.0
    @usableFromInline var last: Double?

    public init() {}

    /// Number of intervals added.
    public var count: Int { n }
    /// Sum of the intervals in ms (the spec's "physiological 60 s").
    public var sumMs: Double { sum }

    @inlinable
    public mutating func add(_ rrMs: Double) {
        n += 1
        sum += rrMs
        let delta = rrMs - mean
        mean += delta / Double(n)
        m2 += delta * (rrMs - mean)
        if let last {
            let d = rrMs - last
            squaredDifferences += d * d
        }
        last = rrMs
    }

    public var rmssdMs: Double? { count >= 2 ? (squaredDifferences / Double(count - 1)).squareRoot() : nil }
    public var meanRRMs: Double? { count >= 1 ? mean : nil }
    public var meanHRBpm: Double? { count >= 1 ? 60_000 / mean : nil }
    public var sdnnMs: Double? { count >= 2 ? (m2 / Double(count - 1)).squareRoot() : nil }

    /// The metrics with the filter's counts.
    public func metrics(rejected: Int) -> HRVMetrics {
        let total = count + rejected
        return HRVMetrics(
            rmssdMs: rmssdMs, meanRRMs: meanRRMs, meanHRBpm: meanHRBpm, sdnnMs: sdnnMs, accepted: count,
            rejected: rejected, artifactRatio: total == 0 ? 0 : Double(rejected) / Double(total))
    }
}

/// Running time-domain HRV over accepted RR intervals, one O(1) step per beat (RecoveryDeck spec §5.1).
///
/// - rMSSD = sqrt(Σ(RRᵢ₊₁ − RRᵢ)² / P) over the P pairs of accepted intervals that were *adjacent as received*
///   (spec §5.1 "successive valid intervals"). The caller says where adjacency breaks (`breakRun()`): a rejected
///   beat, an out-of-range beat, or a gap in the stream between two accepted beats. A difference across a removed
///   beat spans two beat-to-beat changes and biases rMSSD upwards, so such a pair is not counted; P is the
///   divisor. The first accepted beat of a window pairs with nothing (the settle beats before it are discarded).
/// - mean HR = 60000 / mean RR (the spec's formula; pyhrv and hrv-analysis report the mean of 60000/RRᵢ
///   instead, which is larger by Jensen's inequality).
/// - SDNN is the sample standard deviation (divisor N − 1) over every accepted interval, as pyhrv's `sdnn`
///   (ddof = 1) and hrv-analysis compute it. Sums are taken around the first interval (shifted data), which keeps
///   the variance accurate without cancellation and costs no division per beat.
/// Values that need two intervals (or one pair) are nil without them (missing, never zero).
public struct HRVAccumulator: Hashable, Sendable {
    @usableFromInline var n = 0
    @usableFromInline var sum = 0.0
    @usableFromInline var shift = 0.0
    @usableFromInline var shiftedSum = 0.0
    @usableFromInline var shiftedSquares = 0.0
    @usableFromInline var squaredDifferences = 0.0
    @usableFromInline var pairCount = 0
    @usableFromInline var last = 0.0
    /// Whether `last` was the beat received just before the next one: false at the start and after `breakRun()`.
    @usableFromInline var adjacent = false

    public init() {}

    /// Number of intervals added.
    @inlinable public var count: Int { n }
    /// Number of adjacent pairs rMSSD is taken over.
    @inlinable public var pairs: Int { pairCount }
    /// Sum of the intervals in ms (the spec's "physiological 60 s").
    @inlinable public var sumMs: Double { sum }

    /// Adds an accepted interval; it pairs with the previous accepted one unless the run was broken since.
    @inlinable
    public mutating func add(_ rrMs: Double) {
        if n == 0 { shift = rrMs }
        if adjacent {
            let d = rrMs - last
            squaredDifferences += d * d
            pairCount &+= 1
        }
        let s = rrMs - shift
        shiftedSum += s
        shiftedSquares += s * s
        sum += rrMs
        last = rrMs
        adjacent = true
        n += 1
    }

    /// Something came between the last accepted beat and the next one (a rejected beat, a gap): they do not pair.
    @inlinable @inline(__always)
    public mutating func breakRun() { adjacent = false }

    var mean: Double { shift + shiftedSum / Double(n) }

    public var rmssdMs: Double? { pairCount >= 1 ? (squaredDifferences / Double(pairCount)).squareRoot() : nil }
    public var meanRRMs: Double? { count >= 1 ? mean : nil }
    public var meanHRBpm: Double? { count >= 1 ? 60_000 / mean : nil }
    public var sdnnMs: Double? {
        guard n >= 2 else { return nil }
        let variance = (shiftedSquares - shiftedSum * shiftedSum / Double(n)) / Double(n - 1)
        return max(0, variance).squareRoot()
    }

    /// The metrics with the filter's counts, and how the beats were judged where that is known.
    public func metrics(rejected: Int, tally: ArtifactTally? = nil) -> HRVMetrics {
        let total = count + rejected
        return HRVMetrics(
            rmssdMs: rmssdMs, meanRRMs: meanRRMs, meanHRBpm: meanHRBpm, sdnnMs: sdnnMs, accepted: count,
            rejected: rejected, artifactRatio: total == 0 ? 0 : Double(rejected) / Double(total), pairs: pairCount,
            rmssdMethod: .adjacentPairs, judgement: tally)
    }
}

/// rMSSD and friends over a whole list of RR intervals in ms, for `recoverydeck rr analyze` and re-analysis of
/// a stored session (RecoveryDeck spec §5.1).
public enum HRVAnalysis {
    /// How much of the list to use.
    public enum Window: String, Hashable, Sendable, CaseIterable {
        /// Every interval, one filter pass, the same quality verdict as a morning.
        case whole
        /// The spec's morning window, with the cumulative RR time as the clock: interval i "arrives" at the
        /// sum of intervals 0...i (rejected ones included: they are time that passed), rounded down to a ms.
        case morning
    }

    /// One list's analysis: the metrics, the verdict, and the accepted intervals in order.
    public struct Result: Hashable, Sendable {
        public var metrics: HRVMetrics
        public var quality: Quality
        public var acceptedSumMs: Double
        public var accepted: [Double]
        /// For the morning window: where the capture began and ended on the cumulative clock (ms).
        public var captureStartMs: Int64?
        public var captureEndMs: Int64?
    }

    public static func analyze(
        _ rrMs: some Sequence<Double>, window: Window = .whole, rule: ArtifactRule = .default
    ) -> Result {
        switch window {
        case .whole:
            var filter = ArtifactScreen(rule: rule)
            var accumulator = HRVAccumulator()
            var accepted: [Double] = []
            var tally = ArtifactTally(rule: rule)
            func take(_ rr: Double, _ reason: ArtifactTally.Reason?, _: Bool) {
                if let reason {
                    tally[reason] += 1
                    accumulator.breakRun()  // not adjacent across a rejected beat (spec §5.1)
                } else {
                    accumulator.add(rr)
                    accepted.append(rr)
                }
            }
            for rr in rrMs { filter.push(rr, gapBefore: false, emit: take) }
            filter.flush(emit: take)
            return Result(
                metrics: accumulator.metrics(rejected: filter.rejected, tally: tally),
                quality: Quality.verdict(
                    accepted: accumulator.count, rejected: filter.rejected, acceptedSumMs: accumulator.sumMs,
                    pairs: accumulator.pairs),
                acceptedSumMs: accumulator.sumMs, accepted: accepted, captureStartMs: nil, captureEndMs: nil)
        case .morning:
            var configuration = RMSSDWindow.Configuration.morning
            configuration.artifactRule = rule
            var morning = RMSSDWindow(startMs: 0, configuration: configuration)
            var clock = 0.0
            var closed: HRVWindowResult?
            for rr in rrMs {
                if rr.isFinite { clock += rr }
                if case .complete(let result) = morning.append(rr, at: Int64(clock.rounded(.down))) {
                    closed = result
                    break
                }
            }
            // A list that ends before the deadline closes where it ends: nothing more can arrive.
            let result = closed ?? morning.finish(at: Int64(clock.rounded(.down)))
            return Result(
                metrics: result.metrics, quality: result.quality, acceptedSumMs: result.acceptedSumMs,
                accepted: morning.acceptedIntervals, captureStartMs: result.captureStartMs,
                captureEndMs: result.captureEndMs)
        }
    }

    /// The metrics of a list taken as already clean (no filter): what the oracle libraries compute on a list.
    public static func metricsWithoutFilter(_ rrMs: some Sequence<Double>) -> HRVMetrics {
        var accumulator = HRVAccumulator()
        for rr in rrMs { accumulator.add(rr) }
        return accumulator.metrics(rejected: 0)
    }
}

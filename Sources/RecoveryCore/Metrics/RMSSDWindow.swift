/// The morning rMSSD window, driven beat by beat (RecoveryDeck spec §5.1, DESIGN §3).
///
/// Times are ms on the session's monotonic clock; the window starts when the person is lying still
/// (`startMs`). Edges, all half-open so the order in which a beat and a deadline at the same ms are handled
/// does not matter:
/// - settle: `startMs ..< startMs + 15 000`. Beats here are discarded for rMSSD but prime the artifact
///   filter's reference.
/// - capture: from `startMs + 15 000`, until the accepted RR sum is ≥ 60 000 ms with ≥ 45 accepted (the
///   window completes on that beat), or until `startMs + 15 000 + 90 000` (the deadline: a beat arriving at or
///   after it is not counted, and the window completes with the floors it reached).
/// The verdict is `Quality.verdict` (artifact ratio, then floors).
///
/// Nothing here allocates after `init`: accepted RR go to a fixed `RingBuffer` (`SessionCapacity.windowIntervals`).
public struct RMSSDWindow: Sendable {
    public struct Configuration: Hashable, Sendable {
        public var settleMs: Int64 = 15_000
        public var maximumCaptureMs: Int64 = 90_000
        public var minimumAccepted: Int = Quality.minimumAccepted
        public var minimumAcceptedSumMs: Double = Quality.minimumAcceptedSumMs

        public init() {}
        /// The spec's morning window.
        public static let morning = Configuration()
    }

    /// What the window says after a beat or a deadline.
    public enum Progress: Hashable, Sendable {
        case settling
        case capturing
        /// The window is closed; the same result is returned for every later call.
        case complete(HRVWindowResult)
    }

    public let startMs: Int64
    public let configuration: Configuration
    public private(set) var filter = ArtifactFilter()
    public private(set) var accumulator = HRVAccumulator()
    /// The accepted RR of the capture, in order.
    public private(set) var acceptedIntervals: RingBuffer<Double>
    public private(set) var result: HRVWindowResult?

    public init(startMs: Int64, configuration: Configuration = .morning) {
        self.startMs = startMs
        self.configuration = configuration
        // RR below 300 ms are rejected, so 90 s can accept at most 300 intervals: the buffer never refuses.
        self.acceptedIntervals = RingBuffer(capacity: SessionCapacity.windowIntervals)
    }

    public var captureStartMs: Int64 { startMs + configuration.settleMs }
    /// When the capture gives up: the time the daemon should arm a timer for while capturing.
    public var deadlineMs: Int64 { captureStartMs + configuration.maximumCaptureMs }

    public var isComplete: Bool { result != nil }

    /// Feeds one RR interval (ms) received at `nowMs`.
    public mutating func append(_ rrMs: Double, at nowMs: Int64) -> Progress {
        if let result { return .complete(result) }
        if nowMs < captureStartMs {
            filter.prime(rrMs)
            return .settling
        }
        if nowMs >= deadlineMs { return .complete(close(at: deadlineMs)) }
        if filter.judge(rrMs) == .accepted {
            accumulator.add(rrMs)
            acceptedIntervals.append(rrMs)
            if accumulator.count >= configuration.minimumAccepted
                && accumulator.sumMs >= configuration.minimumAcceptedSumMs
            {
                return .complete(close(at: nowMs))
            }
        }
        return .capturing
    }

    /// Moves the window's clock without a beat (the daemon's timer); closes it at the deadline.
    public mutating func advance(to nowMs: Int64) -> Progress {
        if let result { return .complete(result) }
        if nowMs < captureStartMs { return .settling }
        if nowMs >= deadlineMs { return .complete(close(at: deadlineMs)) }
        return .capturing
    }

    /// Closes the window now (the session was cancelled or the strap went away), with the verdict so far.
    public mutating func finish(at nowMs: Int64) -> HRVWindowResult {
        if let result { return result }
        return close(at: max(captureStartMs, min(nowMs, deadlineMs)))
    }

    private mutating func close(at endMs: Int64) -> HRVWindowResult {
        let quality = Quality.verdict(
            accepted: accumulator.count, rejected: filter.rejected, acceptedSumMs: accumulator.sumMs)
        let closed = HRVWindowResult(
            metrics: accumulator.metrics(rejected: filter.rejected), quality: quality,
            acceptedSumMs: accumulator.sumMs, captureStartMs: captureStartMs, captureEndMs: endMs)
        result = closed
        return closed
    }
}

/// The outcome of an rMSSD window: metrics over the accepted RR, the verdict, and where the capture ran.
public struct HRVWindowResult: Hashable, Sendable {
    public var metrics: HRVMetrics
    public var quality: Quality
    public var acceptedSumMs: Double
    public var captureStartMs: Int64
    public var captureEndMs: Int64

    public init(metrics: HRVMetrics, quality: Quality, acceptedSumMs: Double, captureStartMs: Int64, captureEndMs: Int64) {
        self.metrics = metrics
        self.quality = quality
        self.acceptedSumMs = acceptedSumMs
        self.captureStartMs = captureStartMs
        self.captureEndMs = captureEndMs
    }
}

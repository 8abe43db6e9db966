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
/// The verdict is `Quality.verdict` (artifact ratio, then floors, including the floor on adjacent pairs).
///
/// rMSSD is taken over accepted beats adjacent as received (`HRVAccumulator`): a rejected or out-of-range beat
/// breaks the pair across it, and so does a gap in the stream, which the caller reports by announcing each
/// notification (`beginNotification`, `StreamContinuity`) before its beats. A caller that has no notifications
/// (a file of intervals) need not announce any.
///
/// Nothing here allocates: accepted RR are kept inline, in `SessionCapacity.windowIntervals` slots of the window
/// itself (4 KiB), so a beat writes no shared storage and needs no copy-on-write check.
public struct RMSSDWindow: Sendable {
    public struct Configuration: Hashable, Sendable {
        public var settleMs: Int64 = MorningProtocol.settleMs
        public var maximumCaptureMs: Int64 = MorningProtocol.captureMaxMs
        public var minimumAccepted: Int = Quality.minimumAccepted
        public var minimumAcceptedSumMs: Double = Quality.minimumAcceptedSumMs
        /// Which artifact rule judges the beats (the `artifact_rule` setting).
        public var artifactRule: ArtifactRule = .default

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

    /// Slots for the accepted RR of one capture; the literal is `SessionCapacity.windowIntervals` (checked in `init`).
    @usableFromInline typealias AcceptedSlots = InlineDoubles.Slots512
    @inlinable static var slotCount: Int { InlineDoubles.count(AcceptedSlots.self) }

    // Stored state is @usableFromInline so `append`, the per-beat path, inlines into the daemon's loop.
    @usableFromInline var start: Int64
    public let configuration: Configuration
    /// `start + settleMs` and `captureStart + maximumCaptureMs`, kept so that a beat compares without adding.
    @usableFromInline var captureStart: Int64
    @usableFromInline var deadline: Int64
    @usableFromInline var artifactFilter: ArtifactScreen
    /// A gap in the stream was announced since the last beat was received: the next beat carries it.
    @usableFromInline var gapPending = false
    /// Beats the rule rejected and the window counted (the rule's own count may include beats judged after the
    /// window completed).
    @usableFromInline var rejectedCount = 0
    /// Why the counted beats were rejected, and by which rule.
    @usableFromInline var tally: ArtifactTally
    @usableFromInline var running = HRVAccumulator()
    @usableFromInline var continuity = StreamContinuity()
    /// The accepted RR of the capture, in order: the n-th accepted RR (n = 0, 1, …, `running.count` − 1) is in
    /// slot n while n < 512; any later one is counted by `running` but finds no slot (never in the spec's window;
    /// see `init`).
    @usableFromInline var acceptedSlots = InlineDoubles.zero512
    @usableFromInline var closed: HRVWindowResult?
    /// `deadline` while the window is open, `Int64.min` once it is closed: one compare sends every beat that is not
    /// for the settle or the capture (closed window, deadline reached) out of line.
    @usableFromInline var openUntil: Int64

    public var startMs: Int64 { start }
    /// The artifact rule's counts (beats still waiting for their look-ahead are in neither).
    public var filter: ArtifactScreen { artifactFilter }
    public var accumulator: HRVAccumulator { running }
    /// Beats rejected and counted in this window so far.
    public var rejected: Int { rejectedCount }
    /// The accepted RR of the capture, in order: a copy made on request, for analysis of a list (it allocates; the
    /// per-beat path keeps them inline). Never short in the spec's window (see `init`); `accumulator.count` says
    /// how many were accepted.
    public var acceptedIntervals: [Double] {
        (0..<min(running.count, Self.slotCount)).map { InlineDoubles.get(acceptedSlots, $0) }
    }
    /// The outcome, once the window has closed.
    public var result: HRVWindowResult? { closed }

    public init(startMs: Int64, configuration: Configuration = .morning) {
        // RR below 300 ms are rejected, so 90 s can accept at most 300 intervals: the slots never run out.
        assert(Self.slotCount == SessionCapacity.windowIntervals, "window slots differ from SessionCapacity")
        self.start = startMs
        self.configuration = configuration
        self.captureStart = startMs + configuration.settleMs
        self.deadline = captureStart + configuration.maximumCaptureMs
        self.openUntil = deadline
        self.artifactFilter = ArtifactScreen(rule: configuration.artifactRule)
        self.tally = ArtifactTally(rule: configuration.artifactRule)
    }

    /// Starts over at `startMs` (a retry after a quality fail), reusing the slots.
    public mutating func restart(at startMs: Int64) {
        start = startMs
        captureStart = startMs + configuration.settleMs
        deadline = captureStart + configuration.maximumCaptureMs
        openUntil = deadline
        artifactFilter = ArtifactScreen(rule: configuration.artifactRule)
        gapPending = false
        rejectedCount = 0
        tally = ArtifactTally(rule: configuration.artifactRule)
        running = HRVAccumulator()
        continuity = StreamContinuity()
        closed = nil
    }

    @inlinable public var captureStartMs: Int64 { captureStart }
    /// When the capture gives up: the time the daemon should arm a timer for while capturing.
    @inlinable public var deadlineMs: Int64 { deadline }

    public var isComplete: Bool { closed != nil }

    /// Announces a notification received at `nowMs` whose RR sum to `rrSumMs`, before its beats are appended: a
    /// gap before it (beats lost) breaks the pair between the last accepted beat and the next one.
    @inlinable @inline(__always)
    public mutating func beginNotification(rrSumMs: Double, at nowMs: Int64) {
        if continuity.notification(rrSumMs: rrSumMs, at: nowMs) { gapPending = true }
    }

    /// Feeds one RR interval (ms) received at `nowMs`.
    ///
    /// Always inlined into the caller's loop (the per-beat path): the settle and capture cases are a few dozen
    /// instructions; a closed window and a beat at or after the deadline go out of line (`appendAfterCapture`).
    @inlinable @inline(__always)
    public mutating func append(_ rrMs: Double, at nowMs: Int64) -> Progress {
        if nowMs >= openUntil { return appendAfterCapture(rrMs, at: nowMs) }
        if nowMs < captureStart {
            artifactFilter.prime(rrMs)
            return .settling
        }
        let gap = gapPending
        gapPending = false
        var completed = false
        var screen = artifactFilter  // the rule's beats are counted here while it runs: no overlapping access
        screen.push(rrMs, gapBefore: gap) { rr, reason, gapBefore in
            if !completed && take(rr, rejectedFor: reason, gapBefore: gapBefore) { completed = true }
        }
        artifactFilter = screen
        if completed { return .complete(close(at: nowMs, flush: false)) }
        return .capturing
    }

    /// Feeds one RR interval (ms) from a notification in which the strap said it had no skin contact: the beat is
    /// time that passed but not a heartbeat the box can trust. It never primes the reference; in the capture it is
    /// rejected (`noContact`) without reaching the rule, and, like a gap in the stream, breaks the pair between
    /// the beats around it.
    public mutating func appendWithoutContact(_ rrMs: Double, at nowMs: Int64) -> Progress {
        if let closed { return .complete(closed) }
        if nowMs < captureStart { return .settling }
        if nowMs >= deadline { return .complete(close(at: deadline)) }
        rejectedCount += 1
        tally.noContact += 1
        gapPending = true
        return .capturing
    }

    /// Counts one judged beat; true when the window's floors are reached on it.
    @usableFromInline
    mutating func take(_ rrMs: Double, rejectedFor reason: ArtifactTally.Reason?, gapBefore: Bool) -> Bool {
        if gapBefore { running.breakRun() }
        if let reason {
            rejectedCount += 1
            tally[reason] += 1
            running.breakRun()  // a rejected beat came between: its neighbours are not adjacent (spec §5.1)
            return false
        }
        let slot = running.count
        running.add(rrMs)
        // Unsigned compare: also proves slot ≥ 0, so the subscript's own check folds away.
        if UInt(bitPattern: slot) < UInt(Self.slotCount) { InlineDoubles.set(&acceptedSlots, slot, rrMs) }
        return running.count >= configuration.minimumAccepted && running.sumMs >= configuration.minimumAcceptedSumMs
    }

    /// `append` for a closed window or a beat at or after the deadline, in the order the rules are checked: a
    /// closed window repeats its result; a beat before the capture still settles (a window with no capture time
    /// has its deadline at or before the capture start); otherwise the deadline closes the window.
    @usableFromInline
    mutating func appendAfterCapture(_ rrMs: Double, at nowMs: Int64) -> Progress {
        if let closed { return .complete(closed) }
        if nowMs < captureStart {
            artifactFilter.prime(rrMs)
            return .settling
        }
        return .complete(close(at: deadline))
    }

    /// Moves the window's clock without a beat (the daemon's timer); closes it at the deadline.
    public mutating func advance(to nowMs: Int64) -> Progress {
        if let closed { return .complete(closed) }
        if nowMs < captureStartMs { return .settling }
        if nowMs >= deadlineMs { return .complete(close(at: deadlineMs)) }
        return .capturing
    }

    /// Closes the window now (the session was cancelled or the strap went away), with the verdict so far.
    public mutating func finish(at nowMs: Int64) -> HRVWindowResult {
        if let closed { return closed }
        return close(at: max(captureStartMs, min(nowMs, deadlineMs)))
    }

    /// Closes the window. `flush`: the beats still waiting for their look-ahead are judged first (the stream
    /// ended); not when the window completed on a beat (those waiting came after it).
    @usableFromInline
    mutating func close(at endMs: Int64, flush: Bool = true) -> HRVWindowResult {
        if flush {
            var completed = false
            var screen = artifactFilter
            screen.flush { rr, reason, gapBefore in
                if !completed && take(rr, rejectedFor: reason, gapBefore: gapBefore) { completed = true }
            }
            artifactFilter = screen
        }
        let quality = Quality.verdict(
            accepted: running.count, rejected: rejectedCount, acceptedSumMs: running.sumMs,
            pairs: running.pairs)
        let result = HRVWindowResult(
            metrics: running.metrics(rejected: rejectedCount, tally: tally), quality: quality,
            acceptedSumMs: running.sumMs, captureStartMs: captureStartMs, captureEndMs: endMs)
        closed = result
        openUntil = .min
        return result
    }
}

/// The outcome of an rMSSD window: metrics over the accepted RR, the verdict, and where the capture ran.
public struct HRVWindowResult: Hashable, Sendable {
    public var metrics: HRVMetrics
    public var quality: Quality
    public var acceptedSumMs: Double
    public var captureStartMs: Int64
    public var captureEndMs: Int64

    public init(
        metrics: HRVMetrics, quality: Quality, acceptedSumMs: Double, captureStartMs: Int64, captureEndMs: Int64
    ) {
        self.metrics = metrics
        self.quality = quality
        self.acceptedSumMs = acceptedSumMs
        self.captureStartMs = captureStartMs
        self.captureEndMs = captureEndMs
    }
}

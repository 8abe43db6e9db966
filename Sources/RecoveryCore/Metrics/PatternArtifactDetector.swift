/// Artifact detection by local beat patterns (docs/artifacts.md), the default `ArtifactRule`.
///
/// A beat is judged once the next two in-range beats have arrived (or the stream ends: `flush`), against the
/// last accepted beat before it (`p`), the beats after it, and the reference `r`: the median of the last 8 accepted
/// beats. Neighbours alone are not enough where artifacts come in runs (a strap losing skin contact drops several
/// beats, an ectopic beat sits beside a missed one): there the neighbours are artifacts too and hide one another,
/// so the tests that can be fooled so also ask `r`. Each test asks whether an artifact explains the beats better
/// than sinus rhythm does, so a large but smooth respiratory swing is kept:
/// 1. range: outside 300...2000 ms (the spec's rule 1);
/// 2. missed beats: one interval where m ≥ 2 belong. Taken as missed when its distance from m·r (m the nearest
///    whole multiple) is under `fit` (0.6) of its distance from r (about 1.63 r or more) and the next beat is
///    long too (a run) or shorter by more than the threshold, or when it is longer than both neighbours and its
///    distance from their sum is under 0.6 of its distance from their mean;
/// 3. extra beat: two intervals where one belongs. Their sum is nearer r, or the neighbours' mean, than 0.6 of the
///    pieces' mean distance from it (a split beat sums to one interval; two sinus beats sum to two). A piece
///    below 300 ms counts as a piece when the sum is nearer both neighbours than 0.6 of the beat alone is;
/// 4. ectopic beat: a premature beat and its compensatory pause. The short beat is below the line between its
///    neighbours, and at least `prematureFloor` (20 %, more for a very variable person) below both the beat
///    before and r; the pause above the line and longer than the beat after (a rising breath has no such pause),
///    the pair apart by more than the threshold, and the pair's sum is nearer the two beats' worth of time the
///    neighbours predict than 0.6 of the pair's distance from that line; a short beat below both neighbours
///    followed by a pause longer than both neighbours is one too; so is a pause whose premature beat was already
///    rejected alone, when the two sum to about 2 r;
/// 5. outlier: a lone beat away from both neighbours on the same side, by more than the threshold (short) or by
///    more than 45 % and the threshold (long: genuine lone long beats are common in resting recordings); or
///    shorter than r by more than 1.5 thresholds (a burst of short beats from motion, whose neighbours are short
///    too);
/// 6. uncertain: a beat next to one rejected by a pattern (before it, or out of range after it) that is more than
///    the threshold away from r. Beside an artifact the patterns cannot tell a genuine beat from part of the
///    artifact; a wrong beat kept there would enter rMSSD, a genuine one dropped costs one pair.
///
/// The threshold is scaled to the person's own variability: 3 × the median relative successive difference of
/// the last 64 accepted adjacent pairs, within 20...35 % (20 % before 8 pairs are known). Memory is bounded and
/// inline (nothing on the per-beat path allocates, DESIGN §4): 64 ratios, 8 accepted beats and at most 8 beats
/// waiting for their look-ahead.
public struct PatternArtifactDetector: Sendable {
    public enum Verdict: Hashable, Sendable {
        case accepted
        case outOfRange
        case missedBeat
        case extraBeat
        case ectopicBeat
        case outlier
        /// Next to an artifact and too far from the reference to be judged with confidence (test 6).
        case uncertain
    }


    /// Fit factor of the pattern tests (see the type's notes).
    public static let fit = 0.6
    public static let thresholdFactor = 3.0
    public static let thresholdFloor = 0.20
    public static let thresholdCeiling = 0.35
    public static let longOutlierFloor = 0.45
    /// How far below the beat before and the reference a premature beat must be (test 4), at least.
    public static let prematureFloor = 0.20
    /// Test 5's short-burst limit, in thresholds below the reference.
    public static let shortBurstThresholds = 1.5
    static let ringCapacity = 64
    static let pendingCapacity = 8

    @usableFromInline var last = Double.nan
    // Inline slots (InlineDoubles): nothing on the per-beat path allocates (DESIGN §4).
    var ring = InlineDoubles.zero64
    var ringCount = 0
    var ringNext = 0
    var waitingSlots = InlineDoubles.zero8
    /// Bit k: a gap in the stream came just before waiting beat k.
    var pendingGaps: UInt8 = 0
    var pendingCount = 0
    /// The last accepted (or primed) beats, a ring: their median is the reference.
    var recent = InlineDoubles.zero8
    var recentCount = 0
    var recentNext = 0
    /// The last beat received was rejected by a pattern (not out of range, not uncertain).
    var previousPatternRejected = false
    var previousRaw = Double.nan
    var previousWasOutOfRange = false
    var adjacent = false

    public private(set) var accepted = 0
    public private(set) var rejected = 0

    public init() {}

    /// Beats received but not yet judged (they wait for the next beats).
    public var waiting: Int { pendingCount }

    /// The current threshold, a fraction of the previous RR.
    public var threshold: Double {
        guard ringCount >= 8 else { return Self.thresholdFloor }
        var sorted = ring
        let count = ringCount
        let median = InlineDoubles.withBuffer(&sorted) { Self.median(of: .init(rebasing: $0[..<count])) }
        return min(Self.thresholdCeiling, max(Self.thresholdFloor, Self.thresholdFactor * median))
    }

    /// The reference: the median of the last 8 accepted (or primed) beats; NaN before any.
    public var reference: Double {
        guard recentCount > 0 else { return .nan }
        var sorted = recent
        let count = recentCount
        return InlineDoubles.withBuffer(&sorted) { Self.median(of: .init(rebasing: $0[..<count])) }
    }

    mutating func remember(_ rr: Double) {
        InlineDoubles.set(&recent, recentNext, rr)
        recentNext = (recentNext + 1) % 8
        recentCount = min(recentCount + 1, 8)
    }

    /// The median of `values`, sorted in place (insertion sort: at most 64 values, nothing allocated).
    static func median(of values: UnsafeMutableBufferPointer<Double>) -> Double {
        let count = values.count
        guard count > 0 else { return .nan }
        for i in 1..<count {
            let v = values[i]
            var j = i - 1
            while j >= 0 && values[j] > v {
                values[j + 1] = values[j]
                j -= 1
            }
            values[j + 1] = v
        }
        return count % 2 == 1 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2
    }

    mutating func addPair(_ a: Double, _ b: Double) {
        InlineDoubles.set(&ring, ringNext, abs(b - a) / a)
        ringNext = (ringNext + 1) % Self.ringCapacity
        ringCount = min(ringCount + 1, Self.ringCapacity)
    }

    /// A settle beat: not counted, but the reference and the variability start from it.
    public mutating func prime(_ rrMs: Double) {
        guard ArtifactFilter.isInRange(rrMs) else { return }
        if !last.isNaN { addPair(last, rrMs) }
        last = rrMs
        remember(rrMs)
    }

    /// Receives one RR; `emit` is called for every beat judged now, in the order received, with whether a gap in
    /// the stream came just before that beat.
    public mutating func push(_ rrMs: Double, gapBefore: Bool, emit: (Double, Verdict, Bool) -> Void) {
        if pendingCount == Self.pendingCapacity { judgeHead(final: true, emit: emit) }
        InlineDoubles.set(&waitingSlots, pendingCount, rrMs)
        if gapBefore { pendingGaps |= 1 << UInt8(pendingCount) }
        pendingCount += 1
        while pendingCount > 0 && ready() { judgeHead(final: false, emit: emit) }
    }

    /// Judges every waiting beat with the neighbours there are (the stream ended).
    public mutating func flush(emit: (Double, Verdict, Bool) -> Void) {
        while pendingCount > 0 { judgeHead(final: true, emit: emit) }
    }

    /// The head can be judged: it is out of range, or two in-range beats follow it.
    func ready() -> Bool {
        if !ArtifactFilter.isInRange(pending(0)) { return true }
        var found = 0
        var i = 1
        while i < pendingCount {
            if ArtifactFilter.isInRange(pending(i)) { found += 1 }
            i += 1
        }
        return found >= 2
    }

    func gapBeforeWaiting(_ k: Int) -> Bool { pendingGaps & (1 << UInt8(k)) != 0 }

    func pending(_ k: Int) -> Double { InlineDoubles.get(waitingSlots, k) }

    mutating func drop(_ k: Int) {
        let kept = pendingCount - k
        InlineDoubles.withBuffer(&waitingSlots) { slots in
            for i in 0..<kept { slots[i] = slots[i + k] }
        }
        pendingGaps >>= UInt8(k)
        pendingCount -= k
    }

    mutating func judgeHead(final: Bool, emit: (Double, Verdict, Bool) -> Void) {
        let x = pending(0)
        // One or two beats judged (no variadic array: nothing on the per-beat path allocates).
        func finish(_ first: Verdict, _ second: Verdict? = nil) {
            let count = second == nil ? 1 : 2
            for k in 0..<count {
                let verdict = k == 0 ? first : second!
                let rr = pending(k)
                emit(rr, verdict, gapBeforeWaiting(k))
                if verdict == .accepted {
                    accepted += 1
                    if adjacent && !gapBeforeWaiting(k) { addPair(last, rr) }
                    last = rr
                    remember(rr)
                    adjacent = true
                } else {
                    rejected += 1
                    adjacent = false
                }
                previousRaw = rr
                previousWasOutOfRange = verdict == .outOfRange
                previousPatternRejected = verdict != .accepted && verdict != .outOfRange && verdict != .uncertain
            }
            drop(count)
        }
        guard ArtifactFilter.isInRange(x) else { return finish(.outOfRange) }
        guard !last.isNaN else { return finish(.accepted) }
        let p = last
        let t = threshold
        let c = Self.fit
        var n: Double?
        var nIndex = 0
        var n2: Double?
        var i = 1
        while i < pendingCount {
            if ArtifactFilter.isInRange(pending(i)) {
                if n == nil {
                    n = pending(i)
                    nIndex = i
                } else {
                    n2 = pending(i)
                    break
                }
            }
            i += 1
        }
        let rawNext: Double? = pendingCount > 1 ? pending(1) : nil
        let nb = n ?? p
        let r = reference
        // Missed beats, against the reference (a run of them cannot hide one another), then against the neighbours.
        // Against r only when the next beat does not share the rise: it is a missed interval too (a run), or x
        // stands above it by more than the threshold. A genuine slowing eases down over several beats.
        let m = max(2, (x / r).rounded())
        let runOrAlone = n.map { $0 > r * (1 + c) || x > $0 * (1 + t) } ?? true
        if x > r && abs(x - m * r) < c * abs(x - r) && runOrAlone { return finish(.missedBeat) }
        if abs(x - (p + nb)) < c * abs(x - (p + nb) / 2) && x > max(p, nb) { return finish(.missedBeat) }
        // Extra beat with a piece below the range.
        // The sum must fit both neighbours better than the beat alone does.
        func piece(_ short: Double) -> Bool {
            abs(short + x - p) + abs(short + x - nb) < c * (abs(x - p) + abs(x - nb))
        }
        if previousWasOutOfRange && previousRaw < ArtifactFilter.minimumMs && piece(previousRaw) {
            return finish(.extraBeat)
        }
        if let rawNext, rawNext < ArtifactFilter.minimumMs, piece(rawNext) { return finish(.extraBeat, .extraBeat) }
        if let n, nIndex == 1 {
            let after = n2 ?? p
            let s = x + n
            // Split beats in a row: the beat after is a piece too, so the sum is also held against r.
            if abs(s - r) < c * (abs(x - r) + abs(n - r)) / 2 { return finish(.extraBeat, .extraBeat) }
            let a = (p + after) / 2
            if abs(s - a) < c * (abs(x - a) + abs(n - a)) / 2 { return finish(.extraBeat, .extraBeat) }
            let e1 = p + (after - p) / 3
            let e2 = p + 2 * (after - p) / 3
            let premature = min(p, r) * (1 - max(Self.prematureFloor, 0.6 * t))
            if x < e1 - 0.5 * t * p && x < premature && n > e2 && n > after && n - x > t * p
                && abs(s - (p + after)) < c * (abs(x - e1) + abs(n - e2))
            {
                return finish(.ectopicBeat, .ectopicBeat)
            }
        }
        // A compensatory pause whose premature beat was rejected alone (another artifact broke the pattern).
        if previousPatternRejected && previousRaw < r && x > r
            && abs(x + previousRaw - 2 * r) < c * (abs(x - r) + abs(previousRaw - r))
        {
            return finish(.ectopicBeat)
        }
        if let n {
            if x > p && x > n && min(x - p, x - n) > max(Self.longOutlierFloor, t) * p { return finish(.outlier) }
            if x < p && x < n && min(p - x, n - x) > t * p {
                if nIndex == 1, let n2, n > max(p, n2) * (1 + 0.5 * t) { return finish(.ectopicBeat, .ectopicBeat) }
                return finish(.outlier)
            }
        }
        if x < r * (1 - Self.shortBurstThresholds * t) { return finish(.outlier) }
        // Beside an artifact, only a beat near the reference is judged with confidence.
        let besideArtifact = previousPatternRejected || (rawNext.map { !ArtifactFilter.isInRange($0) } ?? false)
        if besideArtifact && abs(x - r) > t * r { return finish(.uncertain) }
        _ = final
        finish(.accepted)
    }
}

/// Artifact detection by local beat patterns (docs/artifacts.md), the default `ArtifactRule`.
///
/// A beat is judged once the next two in-range beats have arrived (or the stream ends: `flush`), against the
/// last accepted beat before it (`p`), the beats after it, and the reference `r`: the median of the last 8 accepted
/// beats. Neighbours alone are not enough where artifacts come in runs (a strap losing skin contact drops several
/// beats, an ectopic beat sits beside a missed one): there the neighbours are artifacts too and hide one another,
/// so the tests that can be fooled so also ask `r`. Each test asks whether an artifact explains the beats better
/// than sinus rhythm does, so a large but smooth respiratory swing is kept:
/// 1. range: outside 300...2000 ms (the spec's rule 1);
/// 2. missed beats: one interval where m ≥ 2 belong. Taken as missed when its distance from m·b (b is r or the beat
///    before, m the nearest whole multiple) is under `fit` (0.6) of its distance from b (about 1.63 b or more) and
///    the next beat is long too (a run) or shorter by more than the threshold — against r only when it also rises
///    from the beat before by more than 1.5 thresholds (a slowing already under way is the rhythm, not a beat
///    missed out of it: r, a median, lags it) — or when it is longer than both
///    neighbours and its distance from their sum is under 0.6 of its distance from their mean (the beat after
///    within 1.5 thresholds of r: a piece of an artifact after a genuine long beat sums with the beat before to
///    about that beat);
/// 3. extra beat: two intervals where one belongs. Their sum is nearer r, or the neighbours' mean, than 0.6 of the
///    pieces' mean distance from it (a split beat sums to one interval; two sinus beats sum to two). A piece
///    below 300 ms counts as a piece when the sum is nearer both neighbours than 0.6 of the beat alone is;
/// 4. ectopic beat: a premature beat and its compensatory pause. The short beat is below the line between its
///    neighbours and at least `prematureFloor` (20 %, more for a very variable person) below the beat before;
///    the pause above the line and longer than the beat after (a rising breath has no such pause), the pair
///    apart by more than the threshold, and the pair's sum is nearer the two beats' worth of time the neighbours
///    predict than 0.6 of the pair's distance from that line. Also: a short beat whose pause towers a threshold
///    over both neighbours; a short beat below both neighbours followed by a pause longer than both; a pause
///    whose premature beat was rejected alone, or kept beside an artifact (premature by `dip` at least), when
///    the two sum to about 2 r;
/// 5. outlier: a lone beat away from both neighbours on the same side, by more than the threshold (short) or by
///    more than 45 % and the threshold (long: genuine lone long beats are common in resting recordings); a V (a
///    premature drop the next beat climbs back out of); a rise of more than `jumpFloor` (55 %) or two thresholds
///    from the beat before; shorter than r by more than 1.5 thresholds and than the beat before by more than half
///    a threshold (a burst of short beats from motion, whose neighbours are short too; a quickening under way
///    comes down in steps while r lags); or, once the threshold is learnt, below both the beat before and r by
///    more than the threshold;
/// 6. uncertain: a beat next to an artifact (a pattern rejection or an out-of-range beat before it, or an
///    out-of-range beat after it) that is more than half the threshold away from r. Beside an artifact the
///    patterns cannot tell a genuine beat from part of the artifact; a wrong beat kept there would enter rMSSD, a
///    genuine one dropped costs one pair.
/// After `reanchorAfter` (8) rejections in a row, the next in-range beat that the two beats after it agree with
/// is accepted and r starts again from it. They agree within 4 × the person's variability (the median relative
/// successive difference), between half the threshold and the threshold: a steady person's rhythm repeats itself
/// far more closely than the 20 % floor, and a piece within 20 % of the beats after it is no new rhythm.
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
    /// The smallest rise from the beat before that test 5 takes as an outlier whatever its neighbours.
    public static let jumpFloor = 0.55
    /// Rejections in a row after which the next in-range beat is accepted as the new reference.
    public static let reanchorAfter = 8
    /// How closely, in multiples of the person's variability, the two beats after a new reference must agree with it.
    public static let reanchorAgreement = 4.0
    /// How far above the beat before, in thresholds, a beat must rise for test 2 to hold it against the reference.
    public static let missedRiseThresholds = 1.5
    /// Test 5's short-burst limit, in thresholds below the reference.
    public static let shortBurstThresholds = 1.5
    /// How far below the beat before, in thresholds, a beat must drop for test 5 to hold it against the short-burst
    /// limit.
    public static let burstDropThresholds = 0.5
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
    /// The last accepted beats, a ring: their median is the reference.
    var recent = InlineDoubles.zero8
    var recentCount = 0
    var recentNext = 0
    /// The last beat received was rejected by a pattern (not out of range, not uncertain).
    var previousPatternRejected = false
    /// Beats rejected in a row (any reason): the escape from a reference that no longer fits (`reanchorAfter`).
    var rejectedRun = 0
    /// The last accepted beat came right after a rejected one: it was judged beside an artifact.
    var lastAcceptedAfterRejection = false
    var previousRaw = Double.nan
    var previousWasOutOfRange = false
    var adjacent = false

    public private(set) var accepted = 0
    public private(set) var rejected = 0

    public init() {}

    /// Beats received but not yet judged (they wait for the next beats).
    public var waiting: Int { pendingCount }

    /// The current threshold, a fraction of the previous RR.
    public var threshold: Double { Self.threshold(variability: variability) }

    /// The threshold a variability gives: the floor while it is not known yet (NaN).
    static func threshold(variability v: Double) -> Double {
        v.isNaN ? thresholdFloor : min(thresholdCeiling, max(thresholdFloor, thresholdFactor * v))
    }

    /// The median relative successive difference of the last 64 accepted adjacent pairs; NaN before 8.
    var variability: Double {
        guard ringCount >= 8 else { return .nan }
        var sorted = ring
        let count = ringCount
        return InlineDoubles.withBuffer(&sorted) { Self.median(of: .init(rebasing: $0[..<count])) }
    }

    /// The reference: the median of the last 8 accepted beats; NaN before any.
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
                    lastAcceptedAfterRejection = rejectedRun > 0
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
                previousPatternRejected = verdict != .accepted && verdict != .uncertain
                rejectedRun = verdict == .accepted ? 0 : rejectedRun + 1
            }
            drop(count)
        }
        guard ArtifactFilter.isInRange(x) else { return finish(.outOfRange) }
        guard !last.isNaN else { return finish(.accepted) }
        let p = last
        // One sort of the ring a beat: the variability gives the threshold and the re-anchor's agreement.
        let v = variability
        let t = Self.threshold(variability: v)
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
        // After a long run of rejections the reference, not the beats, is out of line (a genuine change of rate):
        // start again from this beat, as the spec's rule moves its reference (ArtifactFilter.reanchorAfter) — but
        // only from a beat the two beats after it agree with, as closely as the person's own beats follow one another
        // (4 × their variability, between half the threshold and the threshold). A new rhythm repeats itself; the
        // pieces of a motion burst or a missed interval seldom do three times, and taken as the reference they would
        // reject the genuine beats that follow as artifacts of them.
        if rejectedRun >= Self.reanchorAfter {
            let band = v.isNaN ? t : max(0.5 * t, min(t, Self.reanchorAgreement * v))
            func agrees(_ y: Double?) -> Bool { y.map { abs($0 - x) <= band * x } ?? true }
            guard agrees(n) && agrees(n2) else { return finish(.uncertain) }
            recentCount = 0
            recentNext = 0
            return finish(.accepted)
        }
        let rawNext: Double? = pendingCount > 1 ? pending(1) : nil
        let nb = n ?? p
        let r = reference
        // Missed beats, against the reference (a run of them cannot hide one another), then against the neighbours.
        // Against r only when the next beat does not share the rise: it is a missed interval too (a run), or x
        // stands above it by more than the threshold. A genuine slowing eases down over several beats.
        // How far below the beat before a premature beat falls, at least (tests 4 and 5).
        let dip = max(Self.prematureFloor, 0.6 * t)
        // The beat before is asked too: where the rhythm sits below r, the missed interval is a multiple of it.
        func multiple(of b: Double) -> Bool {
            let m = max(2, (x / b).rounded())
            return x > b && abs(x - m * b) < c * abs(x - b)
        }
        // Against r only for a beat that rises well above the one before: a missed beat doubles the interval at
        // once, while a sleeper slowing by 70 % over four beats (726, 797, 953, 1180 ms) reaches about 2 r with each
        // step a small one, and r, the median of the last 8 beats, lags the change.
        let risesAbove = x > p * (1 + Self.missedRiseThresholds * t)
        let runOrAlone = n.map { $0 > r * (1 + c) || x > $0 * (1 + t) } ?? true
        if ((multiple(of: r) && risesAbove) || multiple(of: p)) && runOrAlone { return finish(.missedBeat) }
        // A rise from the beat before larger than any resting rhythm makes (55 %, or two thresholds): the pause
        // after a premature beat that was kept, or the first interval of a missed run as the rate changes (1203 ms,
        // then 1898 ms where the strap missed a beat of a quickening). pyhrv's real series rise by 48 % at most, the
        // resting windows of 63 people from PhysioNet by 52.8 %.
        if x > p * (1 + max(Self.jumpFloor, 2 * t)) { return finish(.outlier) }
        // A premature beat whose pause towers over both the beat before and the beat after it (the sinus rhythm
        // goes on as before): an ectopic beat even when it is premature by less than `dip`.
        if let n, nIndex == 1, let n2, x < p * (1 - t / 2), x < n2 * (1 - t / 2), n > max(p, n2) * (1 + t) {
            return finish(.ectopicBeat, .ectopicBeat)
        }
        // Against the neighbours' sum only when the beat after is itself a beat of the rhythm (within 1.5 thresholds of
        // r): a piece of a split beat or a motion burst after a genuine long beat sums with the beat before to
        // about that long beat, and would take it for a missed one.
        let nbInRhythm = r.isNaN || abs(nb - r) <= Self.shortBurstThresholds * t * r
        if nbInRhythm && abs(x - (p + nb)) < c * abs(x - (p + nb) / 2) && x > max(p, nb) { return finish(.missedBeat) }
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
            // The beat after the pair, unless it is itself a missed interval or a piece (a run): then r stands in.
            let after = n2.map { $0 > r * (1 + c) || $0 < r * (1 - c) ? r : $0 } ?? p
            let s = x + n
            // Split beats in a row: the beat after is a piece too, so the sum is also held against r.
            if abs(s - r) < c * (abs(x - r) + abs(n - r)) / 2 { return finish(.extraBeat, .extraBeat) }
            let a = (p + after) / 2
            if abs(s - a) < c * (abs(x - a) + abs(n - a)) / 2 { return finish(.extraBeat, .extraBeat) }
            let e1 = p + (after - p) / 3
            let e2 = p + 2 * (after - p) / 3
            let premature = p * (1 - dip)
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
            // A dip below both neighbours by the threshold, or a premature drop from the beat before that the next
            // beat climbs back out of by half a threshold (a V: an ectopic beat whose pause the trend hides).
            if x < p && x < n && (min(p - x, n - x) > t * p || (p - x > dip * p && n - x > 0.5 * t * p)) {
                if nIndex == 1, let n2, n > max(p, n2) * (1 + 0.5 * t) { return finish(.ectopicBeat, .ectopicBeat) }
                return finish(.outlier)
            }
        }
        // A burst's piece drops from the beat before too; a quickening under way (1203, 992, 906, 852, 781 ms) comes
        // down to it in steps, while r, the median of the last 8 beats, still sits at the old rhythm.
        if x < r * (1 - Self.shortBurstThresholds * t) && x < p * (1 - Self.burstDropThresholds * t) {
            return finish(.outlier)
        }
        // A sudden drop below both the beat before and r by more than the threshold, whatever follows: the first
        // piece of a motion burst (the beats after it are short too, so it is not a lone outlier). Only once the
        // threshold has learnt the person (8 pairs): at the floor a rich breathing swing would drop as far, and the
        // rejections would keep the threshold from learning it.
        if ringCount >= 8 && x < p * (1 - t) && x < r * (1 - t) { return finish(.outlier) }
        // A pause after a premature beat that was kept beside an artifact (it did not look premature enough alone):
        // the two sum to about 2 r and the pause rises more than two thresholds above it. Kept, it would pair with
        // the beat after. (Not after a beat judged in clean rhythm: a deep breath rises so too.)
        if lastAcceptedAfterRejection && p < r * (1 - dip) && x > r * (1 + t) && x - p > 2 * t * p
            && abs(x + p - 2 * r) < c * (abs(x - r) + abs(p - r))
        {
            return finish(.ectopicBeat)
        }
        // Beside an artifact, only a beat near the reference (half a threshold) is judged with confidence.
        let besideArtifact = previousPatternRejected || (rawNext.map { !ArtifactFilter.isInRange($0) } ?? false)
        if besideArtifact && abs(x - r) > 0.5 * t * r { return finish(.uncertain) }
        _ = final
        finish(.accepted)
    }
}

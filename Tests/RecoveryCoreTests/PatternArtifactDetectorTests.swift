import Foundation
import Testing

@testable import RecoveryCore

/// The pattern rule (docs/artifacts.md) on hand-built series: each artifact is taken out with its partner, and a
/// genuine respiratory swing of 30 % from one beat to the next is kept.
@Suite struct PatternArtifactDetectorTests {
    /// Each beat's verdict, in order (every beat is judged once the list ends).
    func verdicts(_ rr: [Double]) -> [PatternArtifactDetector.Verdict] {
        var detector = PatternArtifactDetector()
        var out: [PatternArtifactDetector.Verdict] = []
        for x in rr { detector.push(x, gapBefore: false) { _, verdict, _ in out.append(verdict) } }
        detector.flush { _, verdict, _ in out.append(verdict) }
        return out
    }

    /// A resting rhythm around 1000 ms with a small breathing swing (±30 ms).
    func steady(_ count: Int) -> [Double] { (0..<count).map { 1000 + 30 * sin(Double($0) * 1.3) } }

    func rejectedIndices(_ rr: [Double]) -> [Int] {
        verdicts(rr).enumerated().filter { $0.element != .accepted }.map(\.offset)
    }

    @Test("an isolated ectopic beat and its compensatory pause are both rejected, nothing else")
    func ectopicWithPause() {
        var rr = steady(30)
        rr[15] = 650  // premature
        rr[16] = 1000 + 350  // the pause makes up the time
        #expect(rejectedIndices(rr) == [15, 16])
        #expect(verdicts(rr)[15] == .ectopicBeat)
    }

    @Test("a missed beat (one RR about twice its neighbours) is rejected alone")
    func missedBeat() {
        var rr = steady(30)
        rr[12] = rr[12] + rr[13]
        rr.remove(at: 13)
        #expect(rejectedIndices(rr) == [12])
        #expect(verdicts(rr)[12] == .missedBeat)
    }

    @Test("an extra beat (two RR summing to one) is rejected as a pair")
    func extraBeat() {
        var rr = steady(30)
        let whole = rr[10]
        rr[10] = whole * 0.4
        rr.insert(whole * 0.6, at: 11)
        #expect(rejectedIndices(rr) == [10, 11])
        #expect(verdicts(rr)[10] == .extraBeat)
    }

    @Test("a respiratory swing of 30 % from one beat to the next is kept; the spec's 20 % rule drops it")
    func longRSASwingKept() {
        // Breathing every 5 beats at HR ~55: RR 1100 ± 280 ms, successive changes up to 30 % of the previous RR.
        let rr = (0..<120).map { 1100 + 280 * sin(2 * Double.pi * Double($0) / 5) }
        let largest = zip(rr, rr.dropFirst()).map { abs($1 - $0) / $0 }.max()!
        #expect(largest > 0.29)
        #expect(rejectedIndices(rr).isEmpty)
        var spec = ArtifactFilter()
        let specRejected = rr.filter { spec.judge($0) != .accepted }.count
        #expect(specRejected > 10)
    }

    @Test("the threshold follows the person's variability, within 20...35 %")
    func thresholdScales() {
        var calm = PatternArtifactDetector()
        for x in steady(80) { calm.push(x, gapBefore: false) { _, _, _ in } }
        #expect(calm.threshold == PatternArtifactDetector.thresholdFloor)
        var rich = PatternArtifactDetector()
        for i in 0..<80 { rich.push(1100 + 280 * sin(2 * Double.pi * Double(i) / 5), gapBefore: false) { _, _, _ in } }
        #expect(rich.threshold > 0.3 && rich.threshold <= PatternArtifactDetector.thresholdCeiling)
    }

    @Test("a beat waits for at most two in-range beats after it, and memory stays bounded")
    func lookAhead() {
        var detector = PatternArtifactDetector()
        var judged = 0
        for (i, x) in steady(200).enumerated() {
            detector.push(x, gapBefore: false) { _, _, _ in judged += 1 }
            #expect(judged == max(0, i - 1))
            #expect(detector.waiting <= 2)
        }
    }

    @Test("a morning on the pattern rule still completes on 45 accepted beats and 60 s of RR")
    func morningCompletes() {
        var window = RMSSDWindow(startMs: 0)
        var clock: Int64 = 0
        var completed: HRVWindowResult?
        for x in steady(200) {
            clock += Int64(x)
            if case .complete(let result) = window.append(x, at: clock) {
                completed = result
                break
            }
        }
        let result = try? #require(completed)
        #expect(result?.quality == .ok)
        #expect((result?.metrics.accepted ?? 0) >= Quality.minimumAccepted)
        #expect((result?.acceptedSumMs ?? 0) >= Quality.minimumAcceptedSumMs)
        #expect(result?.metrics.rejected == 0)
    }

    @Test("the spec rule stays selectable and judges as before")
    func specRuleSelectable() {
        let rr: [Double] = [1000, 1010, 1300, 1040, 1030]
        #expect(HRVAnalysis.analyze(rr, rule: .spec20).metrics.rejected == 1)
        #expect(ArtifactRule(rawValue: "spec-20") == .spec20 && ArtifactRule.default == .pattern)
    }
}

/// The routine's configuration carries the artifact rule to the session's window.
@Suite struct ArtifactRuleRoutineTests {
    @Test("a routine configured with the spec rule gives its session windows judged by it; the default is pattern")
    func routineCarriesTheRule() {
        let day = DayContext(today: SessionHarness.today, questionnaire: SessionHarness.questionnaire, measured: false)
        var configuration = MorningRoutine.Configuration()
        #expect(MorningRoutine(configuration: configuration, day: day, reminderFiredOn: nil)
            .session.windowConfiguration.artifactRule == .pattern)
        configuration.artifactRule = .spec20
        let routine = MorningRoutine(configuration: configuration, day: day, reminderFiredOn: nil)
        #expect(routine.session.windowConfiguration.artifactRule == .spec20)
    }
}

/// Artifacts in runs and clusters (docs/artifacts.md, "Runs and clusters"): each case is a fixed series on which
/// the rule must keep rMSSD within a stated distance of the value without the artifacts.
@Suite struct PatternArtifactRunTests {
    /// A calm resting rhythm around `base` ms, seeded: rMSSD about 20 ms at 750 ms.
    static func calm(_ count: Int, base: Double = 750, seed: UInt64 = 1) -> [Double] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var drift = 0.0
        return (0..<count).map { i in
            drift = 0.9 * drift + 12 * (uniform() - 0.5)
            return base + drift + 20 * sin(Double(i) * 2 * Double.pi / 4.5) + 10 * (uniform() - 0.5)
        }
    }

    func rmssd(_ rr: [Double]) -> Double { HRVAnalysis.analyze(rr).metrics.rmssdMs ?? .nan }

    /// rMSSD of `rr` within 1.5 ms of `truth`, with `count` beats rejected when given.
    func expectHeld(
        _ rr: [Double], truth: Double, rejected count: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let metrics = HRVAnalysis.analyze(rr).metrics
        let value = metrics.rmssdMs ?? .nan
        #expect(abs(value - truth) < 1.5, "rMSSD \(value) against \(truth)", sourceLocation: sourceLocation)
        if let count { #expect(metrics.rejected == count, sourceLocation: sourceLocation) }
    }

    @Test("two missed beats in a row (two intervals of ~1500 ms in a 750 ms rhythm) are both rejected")
    func twoMissedInARow() {
        let clean = Self.calm(120)
        let truth = rmssd(clean)
        #expect(truth > 15 && truth < 25)
        var rr = clean
        rr[40] = clean[40] + clean[41]
        rr[41] = clean[42] + clean[43]
        rr.removeSubrange(42...43)
        expectHeld(rr, truth: truth, rejected: 2)
    }

    @Test("a sleeper's slowing by 70 % within four beats is kept: no beat of it is taken for a missed one")
    func slowingUnderWayIsKept() {
        // A calm rhythm near 650 ms, then the first 40 beats of a real resting window (healthy_ms-006 of PhysioNet's
        // RR interval time series from healthy subjects, in Tests/Benchmarks/RMSSDRobustness/data): the rate slows
        // from 726 to 1180 ms in three steps of 10-24 % and stays there. 1180 ms is near twice the reference (the
        // median of the last 8 beats, about 690 ms) and the beat after it is long too, so version 5 took it and the
        // beats after it for a run of missed beats (10 rejected, rMSSD 11.9 ms low). A missed beat doubles the
        // interval at once; it is held against the reference only when it rises so from the beat before (more than
        // 1.5 thresholds). The tests above keep runs of missed beats rejected.
        let window: [Double] = [
            617, 649, 687, 719, 726, 797, 953, 1180, 1219, 1117, 1227, 1304, 1289, 1321, 1328, 1195, 1258, 1305, 1304,
            1282, 1203, 1336, 1304, 1297, 1219, 1242, 1297, 1250, 1195, 1243, 1234, 1219, 1164, 1125, 1180, 1188, 1187,
            1102, 1156, 1242,
        ]
        let rr = (0..<40).map { 650 + 15 * sin(Double($0) * 2 * Double.pi / 4.5) } + window
        let squares = zip(rr, rr.dropFirst()).map { ($1 - $0) * ($1 - $0) }
        let allPairs = (squares.reduce(0, +) / Double(squares.count)).squareRoot()
        expectHeld(rr, truth: allPairs, rejected: 0)
    }

    /// The first 60 beats of a real resting window (nsr021 of PhysioNet's Normal Sinus Rhythm RR Interval Database, in
    /// Tests/Benchmarks/RMSSDRobustness/data): a steady 1200 ms, then 992, 906, 852, 781, 750 ms and back.
    static let quickening: [Double] = [
        1164.1, 1187.5, 1187.5, 1226.6, 1234.4, 1226.6, 1242.2, 1242.2, 1226.6, 1257.8, 1234.4, 1203.1, 1218.8,
        1203.1, 1203.1, 1226.6, 1187.5, 1171.9, 1132.8, 1156.2, 1187.5, 1179.7, 1234.4, 1234.4, 1203.1, 1296.9,
        1226.6, 1210.9, 1187.5, 1179.7, 1218.8, 1195.3, 1250.0, 1203.1, 992.2, 906.2, 851.6, 781.2, 750.0, 765.6,
        742.2, 734.4, 726.6, 742.2, 726.6, 710.9, 710.9, 742.2, 781.2, 804.7, 820.3, 890.6, 1203.1, 1101.6,
        1085.9, 1156.2, 1164.1, 1140.6, 1179.7, 1195.3,
    ]

    @Test("a sleeper's quickening by 40 % within five beats is kept: no beat of it is taken for a burst's piece")
    func quickeningUnderWayIsKept() {
        // 781 ms is more than 1.5 thresholds below the reference (the median of the last 8 beats, still about
        // 1200 ms), so version 5 took it and the 8 beats after it for a burst of short beats from motion (9 rejected,
        // rMSSD 4.8 ms high). A burst's piece drops from the beat before too; this one is 8 % below it.
        let rr = Self.quickening
        let squares = zip(rr, rr.dropFirst()).map { ($1 - $0) * ($1 - $0) }
        let allPairs = (squares.reduce(0, +) / Double(squares.count)).squareRoot()
        expectHeld(rr, truth: allPairs, rejected: 0)
    }

    @Test("a missed run as a sleeper quickens: its first interval, 58 % above the beat before, is not kept")
    func missedRunAtAQuickening() {
        // The strap misses every other beat of the quickening's first six (992 ... 766 ms): three intervals of two
        // beats, 1898, 1633 and 1516 ms, after a steady 1200 ms, and the new rhythm of 740 ms after them. Version 6
        // kept the first as a slowing (a rise of 58 %, under its 60 % jump) and the next two with it, and set aside
        // the genuine 740 ms beats as the pieces of split ones: rMSSD 124 ms against the oracle's 56 ms here.
        // Genuine rises in the real resting series reach 52.8 % (PhysioNet nsr018, 976 to 1492 ms).
        var rr = Self.quickening
        rr.replaceSubrange(34...39, with: [992.2 + 906.2, 851.6 + 781.2, 750.0 + 765.6])
        let injected = 34...36
        let pairs = (0..<(rr.count - 1)).filter { !injected.contains($0) && !injected.contains($0 + 1) }
        let oracle = (pairs.map { (rr[$0 + 1] - rr[$0]) * (rr[$0 + 1] - rr[$0]) }.reduce(0, +) / Double(pairs.count))
            .squareRoot()
        #expect(PatternArtifactDetectorTests().verdicts(rr)[34] == .outlier)
        // Within 10 % of the oracle: the third interval still passes as a slowing from the beat before (+26 %).
        let value = rmssd(rr)
        #expect(abs(value - oracle) < 0.10 * oracle, "rMSSD \(value) against the oracle's \(oracle)")
    }

    @Test("runs of three and four missed beats (intervals of 2 and 3 beats) are all rejected")
    func longerRunsOfMissed() {
        let clean = Self.calm(160, seed: 2)
        let truth = rmssd(clean)
        var rr = Array(clean[0..<50])
        rr.append(clean[50] + clean[51] + clean[52])
        rr.append(clean[53] + clean[54])
        rr.append(clean[55] + clean[56])
        rr += clean[57..<100]
        rr += [clean[100] + clean[101], clean[102] + clean[103], clean[104] + clean[105], clean[106] + clean[107]]
        rr += clean[108...]
        expectHeld(rr, truth: truth, rejected: 7)
    }

    @Test("two split intervals in a row (pieces of about 45 % and 55 %) are all rejected")
    func twoExtraInARow() {
        let clean = Self.calm(120, seed: 3)
        let truth = rmssd(clean)
        var rr = Array(clean[0..<60])
        rr += [clean[60] * 0.45, clean[60] * 0.55, clean[61] * 0.45, clean[61] * 0.55]
        rr += clean[62...]
        expectHeld(rr, truth: truth, rejected: 4)
    }

    @Test("an ectopic beat beside a missed beat: the premature beat, its pause and the long interval are rejected")
    func ectopicBesideMissed() {
        let clean = Self.calm(120, seed: 4)
        let truth = rmssd(clean)
        // premature at 66 %, the pause making up the time, then a missed beat; and the other way round later.
        var rr = Array(clean[0..<40])
        rr += [clean[40] * 0.66, clean[41] + clean[40] * 0.34, clean[42] + clean[43]]
        rr += clean[44..<80]
        rr += [clean[80] + clean[81], clean[82] * 0.7, clean[83] + clean[82] * 0.3]
        rr += clean[84...]
        expectHeld(rr, truth: truth, rejected: 6)
    }

    @Test("a burst of short beats (motion) and an out-of-range value beside a missed beat are rejected")
    func motionBurstAndOutOfRange() {
        let clean = Self.calm(140, seed: 5)
        let truth = rmssd(clean)
        var rr = Array(clean[0..<50])
        rr += [480, 510, 455, 530]  // a motion burst that does not keep time
        rr += clean[50..<90]
        rr += [2300, clean[90] + clean[91]]  // a dropout value, then a missed beat
        rr += clean[92...]
        expectHeld(rr, truth: truth, rejected: 6)
    }

    @Test("after a long motion burst the rule starts again from the rhythm, not from the burst's repeated pieces")
    func reanchorAfterLongBurst() {
        // Eight pieces and out-of-range spikes (`reanchorAfter` rejections in a row), then two similar pieces:
        // re-anchoring on the first took the genuine beats after them for missed beats (17 rejected instead of 11:
        // in a morning that fails it for artifacts). The rule now waits for a beat the two after it agree with.
        let clean = Self.calm(140, base: 1000, seed: 6)
        let truth = rmssd(clean)
        var rr = Array(clean[0..<50])
        rr += [251, 594, 415, 503, 288, 459, 345, 380, 451, 477, 2458]  // 4.8 s of pieces in place of 5 beats
        rr += clean[55...]
        expectHeld(rr, truth: truth, rejected: 11)
    }

    @Test("a steady person: after a long run of rejections, a piece 24 % long is not taken as the new reference")
    func reanchorAgreementFollowsVariability() {
        // A rhythm that changes by about 0.5 % a beat (rMSSD near 6 ms, as in the steadiest PhysioNet sleepers), then
        // a cluster of artifacts (a spike, a split beat, an ectopic pair, a dropout: 9 rejections in a row) whose last
        // piece, 1261 ms, is followed by the rhythm's 1016 ms. That beat agrees with the next two within the 20 %
        // threshold, so it was taken as the new reference, and its pair with the next beat (245 ms) doubled rMSSD.
        // The agreement asked of a new reference now scales with the person's own variability (4 x, at least half
        // the threshold): 1261 is rejected and the rhythm re-anchors on its own beat.
        var state: UInt64 = 0x5EED
        func steady(_ count: Int) -> [Double] {
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return 1016 + 8 * (Double(state >> 11) / Double(1 << 53) - 0.5)
            }
        }
        let before = steady(60)
        let after = steady(80)
        let truth = rmssd(before + after)
        #expect(truth < 8)
        let rr = before + [287, 364, 453, 583, 1016, 744, 1023, 2572, 755, 1261] + after
        expectHeld(rr, truth: truth, rejected: 10)
    }

    @Test("artifacts in a morning's settle do not become the reference: a genuine swing right after them is kept")
    func settleArtifactsJudged() throws {
        // 12 calm settle beats, then an ectopic pair and a dropout value before the capture starts at 15 s, and a
        // missed beat that opens it; then a genuine swing (820 → 1133 → 781 ms). Primed blindly, the settle's
        // artifacts entered the reference and the threshold, and the swing's two beats were rejected with the
        // beat after them (3 rejected, the swing's large pairs lost). Judged, the settle's artifacts are left out.
        let settle = Self.calm(12, base: 790, seed: 7)
        let artifacts = [577.0, 1031, 2462, 1531]
        let capture = [820.0, 1133, 781] + Self.calm(110, base: 780, seed: 8)
        var window = RMSSDWindow(startMs: 0, configuration: .morning)
        var clock = 0.0
        var result: HRVWindowResult?
        for rr in settle + artifacts + capture {
            clock += rr
            if case .complete(let r) = window.append(rr, at: Int64(clock)) {
                result = r
                break
            }
        }
        let closed = try #require(result)
        let settleMs = settle.reduce(0, +)
        let beforeMissed = settleMs + artifacts.prefix(3).reduce(0, +)
        let captureStart = Double(window.captureStartMs)
        #expect(captureStart > beforeMissed && captureStart < settleMs + artifacts.reduce(0, +))
        let kept = window.acceptedIntervals
        #expect(Array(kept.prefix(3)) == [820, 1133, 781], "the swing: \(kept.prefix(4))")
        // The capture opens on the missed beat (it arrives after 15 s): it alone is rejected.
        #expect(closed.metrics.rejected == 1, "\(closed.metrics.rejected) capture beats rejected")
        // Every pair of the counted beats, the swing's two large ones included.
        let counted = Array(capture.prefix(closed.metrics.accepted))
        let squares = zip(counted, counted.dropFirst()).map { ($1 - $0) * ($1 - $0) }
        let allPairs = (squares.reduce(0, +) / Double(squares.count)).squareRoot()
        let value = closed.metrics.rmssdMs ?? 0
        #expect(abs(value - allPairs) < 0.01, "rMSSD \(value) against \(allPairs)")
    }

    @Test("an ectopic beat on a falling trend, its pause under the line, and one after a dropout, are rejected")
    func ectopicOnTrendAndAfterDropout() {
        let clean = Self.calm(160, base: 950, seed: 9)
        let truth = rmssd(clean)
        var rr = Array(clean[0..<40])
        // Falling trend: the pause is below the line from the beat before to the beat after.
        rr += [clean[40] * 0.69, clean[41] * 0.9 + clean[40] * 0.2]
        rr += clean[42..<100]
        // A dropout value, then a premature beat that is not premature enough alone, then its pause.
        rr += [3800, clean[100] * 0.82, clean[101] + clean[100] * 0.45]
        rr += clean[102...]
        expectHeld(rr, truth: truth)
    }

    @Test("a genuine breathing swing of +40 % from one beat to the next, in a calm person, is kept")
    func deepBreathKept() {
        // A calm rhythm (threshold at its floor) with a deep breath every 20 beats: a dip of 16 %, then +40 %
        // from one beat to the next, easing back over four beats. It sums like an ectopic beat and its pause.
        var rr = Self.calm(200, base: 900, seed: 6)
        for start in stride(from: 20, to: 180, by: 20) {
            let base = rr[start - 1]
            rr[start] = base * 0.84
            rr[start + 1] = base * 0.84 * 1.4
            rr[start + 2] = base * 1.11
            rr[start + 3] = base * 1.05
        }
        var detector = PatternArtifactDetector()
        for x in rr { detector.push(x, gapBefore: false) { _, _, _ in } }
        #expect(detector.threshold < 0.22)
        let result = HRVAnalysis.analyze(rr)
        let truth = HRVAnalysis.metricsWithoutFilter(rr).rmssdMs ?? 0
        #expect(result.metrics.rejected == 0)
        #expect(abs((result.metrics.rmssdMs ?? 0) - truth) < 0.02 * truth)
    }
}

/// A morning says how its beats were judged, and one the detector cannot trust fails instead of saving a number.
@Suite struct ArtifactJudgementTests {
    @Test("a morning window's result names the rule, its version and why each rejected beat was rejected")
    func windowTallies() {
        var rr = PatternArtifactRunTests.calm(140, base: 900, seed: 7)
        rr[60] = rr[60] + rr[61]
        rr[61] = rr[62] + rr[63]
        rr.removeSubrange(62...63)
        rr.insert(2400, at: 70)
        let result = HRVAnalysis.analyze(rr, window: .morning)
        let tally = result.metrics.judgement
        #expect(tally?.rule == .pattern && tally?.version == ArtifactRule.pattern.version)
        #expect(tally?.missed == 2 && tally?.outOfRange == 1)
        #expect(tally?.rejected == result.metrics.rejected)
        let spec = HRVAnalysis.analyze(rr, rule: .spec20).metrics.judgement
        #expect(spec?.rule == .spec20 && (spec?.successiveDifference ?? 0) > 0)
        #expect(spec?.rejected == HRVAnalysis.analyze(rr, rule: .spec20).metrics.rejected)
    }

    @Test("a strap stumbling every few beats (runs of missed and split beats) fails quality, no rMSSD saved as ok")
    func stumblingStrapFails() {
        var rr: [Double] = []
        let clean = PatternArtifactRunTests.calm(200, base: 800, seed: 8)
        var i = 0
        while i + 4 < clean.count {
            // Three good beats, then two missed intervals or a split beat, in turn.
            rr += clean[i..<(i + 3)]
            if (i / 5) % 2 == 0 {
                rr += [clean[i + 3] * 2, clean[i + 4] * 2]
            } else {
                rr += [clean[i + 3] * 0.45, clean[i + 3] * 0.55, clean[i + 4]]
            }
            i += 5
        }
        let result = HRVAnalysis.analyze(rr, window: .morning)
        #expect(result.quality == .fail(.tooManyArtifacts))
        #expect(result.quality.code != "ok")
    }
}

import Testing

@testable import RecoveryCore

/// Golden vectors for the adjacent-pair rule (RecoveryDeck spec §5.1: rMSSD over "successive valid intervals";
/// a rejected beat, an out-of-range beat or a gap in the stream between two accepted beats breaks the pair),
/// computed by hand at the rule's edges. Each is chosen so that the old rule (differences between consecutive
/// entries of the accepted list) gives a different number, so every test fails on the old code.
/// Tolerance 1e-12 relative: the sums are exact in binary floating point up to the square root.
@Suite struct RMSSDPairRuleTests {
    func close(_ a: Double?, _ b: Double) -> Bool { RMSSDGoldenTests().close(a, b) }

    @Test("a rejected beat between two accepted ones breaks their pair: rMSSD 10 over 2 pairs, not 19.149")
    func rejectedBetween() {
        // 1000 ok (no reference), 1010 ok (5·10 ≤ 1000), 1300 ✗ (5·290 > 1010), 1040 ok (5·30 ≤ 1010), 1030 ok.
        // Accepted 1000, 1010, 1040, 1030; adjacent pairs (1000, 1010) and (1040, 1030): squares 100 + 100,
        // P = 2 → √100 = 10. The old rule took 10, 30, −10 → √(1100 / 3) = 19.148542155126762.
        let result = HRVAnalysis.analyze([1000, 1010, 1300, 1040, 1030], rule: .spec20)
        #expect(result.accepted == [1000, 1010, 1040, 1030])
        #expect(result.metrics.pairs == 2)
        #expect(close(result.metrics.rmssdMs, 10))
        #expect(result.metrics.rmssdMethod == .adjacentPairs)
        // SDNN and mean HR stay over every accepted beat: mean 1020, deviations −20, −10, 20, 10 → √(1000/3).
        #expect(close(result.metrics.sdnnMs, (1000.0 / 3).squareRoot()))
        #expect(close(result.metrics.meanHRBpm, 60_000.0 / 1020))
    }

    @Test("an out-of-range beat between two accepted ones breaks their pair: rMSSD 10 over 2 pairs")
    func outOfRangeBetween() {
        // 250 < 300 (rule 1) sits where 1300 sat above: same accepted list, same pairs, same √100.
        let result = HRVAnalysis.analyze([1000, 1010, 250, 1040, 1030], rule: .spec20)
        #expect(result.metrics.rejected == 1)
        #expect(result.metrics.pairs == 2)
        #expect(close(result.metrics.rmssdMs, 10))
    }

    @Test("a run of three rejections breaks one pair, and beats on either side still pair among themselves")
    func runOfRejections() {
        // 1000, 1020 ok; 1500, 1600, 1550 ✗ (each > 20 % from 1020, the run's third re-anchors on 1550);
        // 1010 vs 1550: 5·540 > 1550 ✗ (a fourth rejection); 1000 vs 1010 ok; 990 ok.
        // Accepted 1000, 1020, 1000, 990: pairs (1000, 1020) and (1000, 990): 400 + 100 → √250.
        let result = HRVAnalysis.analyze([1000, 1020, 1500, 1600, 1550, 1010, 1000, 990], rule: .spec20)
        #expect(result.accepted == [1000, 1020, 1000, 990])
        #expect(result.metrics.pairs == 2)
        #expect(close(result.metrics.rmssdMs, 250.0.squareRoot()))
    }

    /// A window whose settle ends at 15 000 ms: 14 settle beats of 1000 ms, one notification each, on time.
    func settled() -> RMSSDWindow {
        var window = RMSSDWindow(startMs: 0)
        for k in 1...14 {
            window.beginNotification(rrSumMs: 1000, at: Int64(k) * 1000)
            _ = window.append(1000, at: Int64(k) * 1000)
        }
        return window
    }

    /// Feeds the capture one notification per beat, on the settle's clock (the first beat ends 14 000 ms + its RR
    /// after the start), each `late[i]` ms after its beat's end.
    func capture(_ beats: [Double], startingAt start: Double = 14_000, late: [Int: Double] = [:]) -> HRVWindowResult {
        var window = settled()
        var clock = start
        for (i, rr) in beats.enumerated() {
            clock += rr
            let at = Int64(clock + (late[i] ?? 0))
            window.beginNotification(rrSumMs: rr, at: at)
            _ = window.append(rr, at: at)
        }
        return window.finish(at: Int64(clock) + 5000)
    }

    @Test("a gap in the stream (lost notifications: 1501 ms more time than RR) breaks the pair across it")
    func gapBetween() {
        // Capture beats 1010, 1020, [lost], 1050, 1040: the notification of 1050 arrives 1501 ms later than the RR
        // received account for, one ms beyond the tolerance (StreamContinuity.toleranceMs = 1500).
        // Pairs (1010, 1020) and (1050, 1040): 100 + 100 → √100 = 10 (the old rule: 10, 30, −10 → 19.149).
        let lost = capture([1010, 1020, 1050, 1040], late: [2: 1501, 3: 1501])
        #expect(lost.metrics.pairs == 2)
        #expect(close(lost.metrics.rmssdMs, 10))
        // At exactly the tolerance the lag is delivery delay, not a gap: 3 pairs, √(1100 / 3).
        let late = capture([1010, 1020, 1050, 1040], late: [2: 1500, 3: 1500])
        #expect(late.metrics.pairs == 3)
        #expect(close(late.metrics.rmssdMs, (1100.0 / 3).squareRoot()))
        // A single late notification followed by punctual ones is delay too (the lag falls back).
        let once = capture([1010, 1020, 1050, 1040], late: [2: 1400])
        #expect(once.metrics.pairs == 3)
    }

    @Test("beats from a notification without skin contact are rejected as no_contact and break the pair around them")
    func withoutContact() {
        // Capture 1010, 1020, then one notification without contact carrying 600 and 1400 (a strap sliding on dry
        // skin), then 1050, 1040. With contact the pattern rule would have to judge 600/1400 itself; without, they
        // never reach it: pairs (1010, 1020) and (1050, 1040), 100 + 100 → √100 = 10, 2 rejected as no_contact.
        var window = settled()
        var clock = 14_000.0
        for (rr, contact) in [(1010.0, true), (1020, true), (600, false), (1400, false), (1050, true), (1040, true)] {
            clock += rr
            window.beginNotification(rrSumMs: rr, at: Int64(clock))
            _ = contact ? window.append(rr, at: Int64(clock)) : window.appendWithoutContact(rr, at: Int64(clock))
        }
        let result = window.finish(at: Int64(clock) + 5000)
        #expect(result.metrics.pairs == 2)
        #expect(close(result.metrics.rmssdMs, 10))
        #expect(result.metrics.judgement?.noContact == 2)
        #expect(result.metrics.rejected == 2)
        // In the settle such beats do not prime the reference either: the capture is what it was without them.
        var primed = RMSSDWindow(startMs: 0)
        _ = primed.appendWithoutContact(300, at: 500)
        #expect(primed.rejected == 0)
    }

    @Test("a stored morning replays its no-contact notifications as the session judged them, from its heart rates")
    func withoutContactReplayed() {
        // One notification a beat from 1 s: 20 settle beats and 60 capture beats of 1000 ± 10 ms, the capture's
        // 30th and 31st in a notification with a zero rate (the strap's "no contact"), carrying 500 and 1500.
        var rawRR: [RRInterval] = []
        var heartRates: [HeartRateReading] = []
        var configuration = RMSSDWindow.Configuration.morning
        configuration.settleMs = 20_000
        var window = RMSSDWindow(startMs: 0, configuration: configuration)
        var clock: Int64 = 0
        var live: HRVWindowResult?
        for k in 0..<80 {
            let noContact = k == 50
            let beats: [Double] = noContact ? [500, 1500] : [k % 2 == 0 ? 990 : 1010]
            clock += Int64(beats.reduce(0, +))
            for rr in beats { rawRR.append(RRInterval(raw: UInt16((rr * 1.024).rounded()), receivedAtMs: clock)) }
            heartRates.append(HeartRateReading(bpm: noContact ? 0 : 60, receivedAtMs: clock))
            window.beginNotification(rrSumMs: rawRR.suffix(beats.count).reduce(0) { $0 + $1.milliseconds }, at: clock)
            for interval in rawRR.suffix(beats.count) where live == nil {
                let progress =
                    noContact
                    ? window.appendWithoutContact(interval.milliseconds, at: clock)
                    : window.append(interval.milliseconds, at: clock)
                if case .complete(let r) = progress { live = r }
            }
        }
        let result = live ?? window.finish(at: clock)
        let marks = PhaseMarks(settleStartMs: 0, captureStartMs: 20_000, captureEndMs: result.captureEndMs)
        #expect(result.metrics.judgement?.noContact == 2)
        #expect(HRVAnalysis.reanalyze(rawRR: rawRR, marks: marks, heartRates: heartRates).metrics == result.metrics)
        // Without the heart rates the replay cannot know, and judges the two beats by the rule instead.
        let blind = HRVAnalysis.reanalyze(rawRR: rawRR, marks: marks).metrics
        #expect(blind.judgement?.noContact == 0)
        #expect(blind != result.metrics)
    }

    @Test("a notification without RR says nothing about the stream: it is not a gap")
    func emptyNotification() {
        // A slow heart (1800 ms): a notification 1600 ms after the last beat carries no RR. Counted as a
        // notification it would read as 1600 ms of lost time (> 1500) and break the pair (1800, 1790).
        var configuration = RMSSDWindow.Configuration.morning
        configuration.settleMs = 0
        var window = RMSSDWindow(startMs: 0, configuration: configuration)
        window.beginNotification(rrSumMs: 1800, at: 1800)
        _ = window.append(1800, at: 1800)
        window.beginNotification(rrSumMs: 0, at: 3400)
        window.beginNotification(rrSumMs: 1790, at: 3590)
        _ = window.append(1790, at: 3590)
        let result = window.finish(at: 4000)
        #expect(result.metrics.pairs == 1)
        #expect(close(result.metrics.rmssdMs, 10))
    }

    @Test("the first beat after the settle pairs with nothing: the settle's beats are discarded for rMSSD")
    func firstBeatAfterSettle() {
        // The last settle beat is 1000; the capture's first beats 1100 (5·100 ≤ 1000: accepted), 1110.
        // One pair (1100, 1110) → rMSSD 10; pairing across the settle's edge would give √((100² + 10²)/2) = 71.06.
        let result = capture([1100, 1110])
        #expect(result.metrics.accepted == 2)
        #expect(result.metrics.pairs == 1)
        #expect(close(result.metrics.rmssdMs, 10))
    }

    @Test("the floor on pairs: 33 pass, 32 fail as too few beats (spec §5.1 floors and ratio imply 33 without gaps)")
    func pairFloor() {
        #expect(Quality.verdict(accepted: 45, rejected: 11, acceptedSumMs: 60_000, pairs: 33) == .ok)
        #expect(Quality.verdict(accepted: 45, rejected: 11, acceptedSumMs: 60_000, pairs: 32) == .fail(.tooFewBeats))
        // The ratio still comes first: 12 of 57 rejected (0.21) is too many artifacts whatever the pairs.
        #expect(
            Quality.verdict(accepted: 45, rejected: 12, acceptedSumMs: 60_000, pairs: 0) == .fail(.tooManyArtifacts))
    }

    @Test("without gaps the spec's floors leave at least 33 pairs: 45 accepted split by 11 rejections still pass")
    func floorNeverFailsAGapFreePass() {
        // 45 accepted beats (1000 and 1010 alternating, 1335 ms each so that the sum passes 60 000) in 12 runs,
        // 11 out-of-range beats (250 ms) between the runs: P = 45 − 12 = 33, ratio 11 / 56 = 0.196.
        var rr: [Double] = []
        var accepted = 0
        for run in 0..<12 {
            let length = run < 9 ? 4 : 3  // 9·4 + 3·3 = 45
            for _ in 0..<length {
                rr.append(accepted % 2 == 0 ? 1335 : 1345)
                accepted += 1
            }
            if run < 11 { rr.append(250) }
        }
        let result = HRVAnalysis.analyze(rr)
        #expect(result.metrics.accepted == 45)
        #expect(result.metrics.rejected == 11)
        #expect(result.metrics.pairs == 33)
        #expect(result.quality == .ok)
        #expect(close(result.metrics.rmssdMs, 10))
    }
}

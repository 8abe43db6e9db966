import Testing

@testable import RecoveryCore

/// Golden vectors for RecoveryDeck spec §5.1, computed by hand (the arithmetic is in each comment). Tolerance
/// 1e-12 relative: every value below is exact in binary floating point up to the final square root.
@Suite struct RMSSDGoldenTests {
    func close(_ a: Double?, _ b: Double) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= 1e-12 * abs(b)
    }

    @Test("golden: [800, 810, 790, 800] → rMSSD √200, SDNN √(200/3), mean HR 75 (spec §5.1)")
    func cleanFour() {
        // Differences 10, −20, 10; squares 100 + 400 + 100 = 600; N − 1 = 3 → 200; √200 = 14.142135623730951.
        // Mean RR 3200 / 4 = 800; mean HR 60000 / 800 = 75.
        // Deviations 0, 10, −10, 0; squares 200; sample SD √(200 / 3) = 8.16496580927726.
        let result = HRVAnalysis.analyze([800, 810, 790, 800], rule: .spec20)
        #expect(result.accepted == [800, 810, 790, 800])
        #expect(close(result.metrics.rmssdMs, 14.142135623730951))
        #expect(close(result.metrics.sdnnMs, 8.16496580927726))
        #expect(result.metrics.meanRRMs == 800)
        #expect(result.metrics.meanHRBpm == 75)
        #expect(result.metrics.artifactRatio == 0)
        // Four beats: the floors (45 beats, 60 000 ms) are not met.
        #expect(result.quality == .fail(.tooFewBeats))
    }

    @Test("golden with artifacts: range and 20 % rules, then rMSSD over adjacent accepted pairs (spec §5.1)")
    func withArtifacts() {
        // Input        1000 1000 250   1010 1300          990  2100  1000
        // rule 1        ok   ok  <300   ok   ok            ok  >2000  ok
        // reference     –   1000  –    1000 1010          1010  –     990
        // rule 2       keep keep  –    keep 5·290>1010 ✗  keep  –     keep
        // Accepted: 1000, 1000, 1010, 990, 1000. Only (1000, 1000) is adjacent as received: every other pair has a
        // rejected beat between its members. One pair, difference 0 → rMSSD 0 (the old rule took 0, 10, −20, 10
        // → √150). Mean RR 5000 / 5 = 1000 → 60 bpm.
        // Deviations 0, 0, 10, −10, 0 → 200 / 4 = 50; √50 = 7.0710678118654755. Ratio 3 / 8 = 0.375.
        let result = HRVAnalysis.analyze([1000, 1000, 250, 1010, 1300, 990, 2100, 1000], rule: .spec20)
        #expect(result.accepted == [1000, 1000, 1010, 990, 1000])
        #expect(result.metrics.pairs == 1)
        #expect(result.metrics.rmssdMs == 0)
        #expect(close(result.metrics.sdnnMs, 7.0710678118654755))
        #expect(result.metrics.meanHRBpm == 60)
        #expect(result.metrics.accepted == 5 && result.metrics.rejected == 3)
        #expect(result.metrics.artifactRatio == 0.375)
        #expect(result.quality == .fail(.tooManyArtifacts))
    }

    @Test("golden: alternating 1000/1050 for 60 beats → rMSSD 50 exactly, quality ok (spec §5.1)")
    func alternating() {
        // 60 beats, 59 differences each ±50 → mean square 2500 → rMSSD 50. Sum 30·1000 + 30·1050 = 61 500 ≥ 60 000.
        // Mean RR 1025 → HR 60000/1025 = 58.536585365853654. Deviations ±25 → 60·625 / 59 → SDNN 25.21252...
        let rr = (0..<60).map { $0 % 2 == 0 ? 1000.0 : 1050.0 }
        let result = HRVAnalysis.analyze(rr, rule: .spec20)
        #expect(close(result.metrics.rmssdMs, 50))
        #expect(close(result.metrics.meanHRBpm, 60_000.0 / 1025.0))
        #expect(close(result.metrics.sdnnMs, (60.0 * 625.0 / 59.0).squareRoot()))
        #expect(result.quality == .ok)
    }

    @Test("one accepted interval gives no rMSSD and no SDNN: missing, never zero (spec §5.1)")
    func tooShortIsMissing() {
        let result = HRVAnalysis.analyze([1000], rule: .spec20)
        #expect(result.metrics.rmssdMs == nil)
        #expect(result.metrics.sdnnMs == nil)
        #expect(result.metrics.meanRRMs == 1000)
        let empty = HRVAnalysis.analyze([], rule: .spec20)
        #expect(empty.metrics.meanHRBpm == nil)
        #expect(empty.quality == .fail(.rrUnavailable))
    }
}

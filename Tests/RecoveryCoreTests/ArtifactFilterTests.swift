import Testing

@testable import RecoveryCore

/// RecoveryDeck spec §5.1 artifact rules: range 300–2000 ms, then the 20 % successive-difference rule.
@Suite struct ArtifactFilterTests {
    func verdicts(_ rr: [Double]) -> [ArtifactFilter.Verdict] {
        var filter = ArtifactFilter()
        return rr.map { filter.judge($0) }
    }

    @Test("range rule keeps 300 and 2000 ms, drops 299 and 2001 ms (spec §5.1 rule 1)")
    func rangeEdges() {
        // Each value stands alone, so rule 2 has no reference and only rule 1 can drop it.
        for (rr, kept) in [
            (299.0, false), (300.0, true), (2000.0, true), (2001.0, false), (299.999, false),
            (2000.001, false), (Double.nan, false), (-5, false),
        ] {
            var filter = ArtifactFilter()
            #expect((filter.judge(rr) == .accepted) == kept, "RR \(rr)")
        }
    }

    @Test(
        "range rule in the strap's 1/1024 s: 308 (300.78 ms) kept, 307 (299.80 ms) dropped (spec §4.1, §5.1)")
    func rangeEdgesInRawUnits() {
        // 300 ms = 307.2 raw, so 307 is the last raw value below; 2000 ms = 2048 raw exactly.
        for (raw, kept) in [(UInt16(307), false), (308, true), (2048, true), (2049, false)] {
            var filter = ArtifactFilter()
            let ms = RRInterval(raw: raw, receivedAtMs: 0).milliseconds
            #expect((filter.judge(ms) == .accepted) == kept, "raw \(raw) = \(ms) ms")
        }
        #expect(RRInterval(raw: 2048, receivedAtMs: 0).milliseconds == 2000)
    }

    @Test("exactly 20 % of the previous RR is kept, just over is dropped, both directions (spec §5.1 rule 2)")
    func twentyPercentEdges() {
        #expect(verdicts([1000, 1200]) == [.accepted, .accepted])  // +200 = 20 %
        #expect(verdicts([1000, 1201]) == [.accepted, .successiveDifference])  // +201 > 200
        #expect(verdicts([1000, 800]) == [.accepted, .accepted])  // −200 = 20 %
        #expect(verdicts([1000, 799]) == [.accepted, .successiveDifference])
        // 20 % of the *previous* RR: 800 → 960 is +160 = 20 % of 800; 800 → 961 is over.
        #expect(verdicts([800, 960]) == [.accepted, .accepted])
        #expect(verdicts([800, 961]) == [.accepted, .successiveDifference])
        // Raw units: 1024 → 1228 is +204 raw ≤ 204.8 (kept); 1024 → 1229 is +205 (dropped).
        let ms = { (raw: UInt16) in RRInterval(raw: raw, receivedAtMs: 0).milliseconds }
        #expect(verdicts([ms(1024), ms(1228)]) == [.accepted, .accepted])
        #expect(verdicts([ms(1024), ms(1229)]) == [.accepted, .successiveDifference])
    }

    @Test("out-of-range RR is dropped by rule 1 first and is never the reference (spec §5.1 order)")
    func rangeBeforeDifference() {
        // 2100 is out of range; 1000 after it is compared with the 1000 before it, not with 2100.
        #expect(verdicts([1000, 2100, 1000]) == [.accepted, .outOfRange, .accepted])
        #expect(verdicts([1000, 250, 1010]) == [.accepted, .outOfRange, .accepted])
    }

    @Test("an isolated ectopic beat costs two rejections: premature beat and compensatory pause (spec §5.1)")
    func ectopicPair() {
        // 650 vs 1000: 5·350 > 1000; 1350 vs previous accepted 1000: 5·350 > 1000; 1000 vs 1000 kept.
        #expect(
            verdicts([1000, 1000, 650, 1350, 1000, 1000]) == [
                .accepted, .accepted, .successiveDifference, .successiveDifference, .accepted, .accepted,
            ])
    }

    @Test("an early artifact cannot lock the filter: after three rejections the reference moves (spec §5.1)")
    func lockOnIsBroken() {
        // 500 is accepted (nothing to compare with) but the heart beats at 1000. Compared with the previous
        // accepted RR only, every 1000 would be dropped forever (5·500 > 500). Three rejections in a row move the
        // reference to the previous received beat (1000), so the fourth 1000 is kept and the rest follow.
        let rr: [Double] = [500] + Array(repeating: 1000, count: 10)
        var filter = ArtifactFilter()
        let v = rr.map { filter.judge($0) }
        #expect(v[0] == .accepted)
        #expect(v[1...3].allSatisfy { $0 == .successiveDifference })
        #expect(v[4...].allSatisfy { $0 == .accepted })
        #expect(filter.accepted == 8)
        #expect(filter.rejected == 3)
    }

    @Test("after re-anchoring, a beat must agree with its predecessor; a settled rhythm is followed again")
    func reanchorNeedsAgreement() {
        // A genuine step from 1000 to 700 ms (−30 %): three rejections, then 700 vs 700 kept. The kept 700 is the
        // reference again: a lone 1000 after it (+43 %) is dropped and the next 700 is kept.
        let v = verdicts([1000, 1000, 700, 700, 700, 700, 1000, 700, 700])
        #expect(
            v == [
                .accepted, .accepted, .successiveDifference, .successiveDifference, .successiveDifference,
                .accepted, .successiveDifference, .accepted, .accepted,
            ])
        // Three rejections that do not agree with each other do not re-establish anything either:
        // 1000, then 400, 1900, 400 (each far from 1000), then 1000: judged against 400 (re-anchored) and dropped;
        // 1000 again agrees with its predecessor and is kept.
        #expect(
            verdicts([1000, 400, 1900, 400, 1000, 1000]) == [
                .accepted, .successiveDifference, .successiveDifference, .successiveDifference,
                .successiveDifference, .accepted,
            ])
    }

    @Test("priming sets the reference without counting (settle beats, spec §5.1)")
    func primingDoesNotCount() {
        var filter = ArtifactFilter()
        filter.prime(1000)
        filter.prime(100)  // out of range: ignored
        #expect(filter.judge(1300) == .successiveDifference)  // judged against the primed 1000
        #expect(filter.accepted == 0 && filter.rejected == 1)
    }

    @Test("artifact ratio is rejected / (accepted + rejected) over both rules (spec §5.1 rule 3)")
    func ratio() {
        var filter = ArtifactFilter()
        for rr in [1000.0, 1000, 250, 1010, 1300, 990, 2100, 1000] { _ = filter.judge(rr) }
        // Rejected: 250 (range), 1300 (5·290 > 1010), 2100 (range) = 3 of 8.
        #expect(filter.rejectedOutOfRange == 2)
        #expect(filter.rejectedSuccessiveDifference == 1)
        #expect(filter.artifactRatio == 3.0 / 8.0)
        #expect(ArtifactFilter().artifactRatio == 0)
    }
}

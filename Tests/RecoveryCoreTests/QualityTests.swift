import Testing

@testable import RecoveryCore

/// RecoveryDeck spec §5.1 step 4 and §4.1: the quality verdict and its reason.
@Suite struct QualityTests {
    @Test("artifact ratio 0.20 passes, 0.2001 fails (spec §5.1 step 4: > 0.20 fails)")
    func ratioEdge() {
        #expect(Quality.verdict(accepted: 8000, rejected: 2000, acceptedSumMs: 8_000_000) == .ok)  // 0.2000
        #expect(
            Quality.verdict(accepted: 7999, rejected: 2001, acceptedSumMs: 7_999_000)
                == .fail(.tooManyArtifacts))  // 0.2001
        #expect(Quality.verdict(accepted: 48, rejected: 12, acceptedSumMs: 60_000) == .ok)  // 12/60 = 0.20
        #expect(Quality.verdict(accepted: 48, rejected: 13, acceptedSumMs: 60_000) == .fail(.tooManyArtifacts))
    }

    @Test("44 accepted fails, 45 passes; 59 999 ms fails, 60 000 ms passes (spec §5.1 window floors)")
    func floors() {
        #expect(Quality.verdict(accepted: 44, rejected: 0, acceptedSumMs: 66_000) == .fail(.tooFewBeats))
        #expect(Quality.verdict(accepted: 45, rejected: 0, acceptedSumMs: 67_500) == .ok)
        #expect(Quality.verdict(accepted: 60, rejected: 0, acceptedSumMs: 59_999) == .fail(.tooFewBeats))
        #expect(Quality.verdict(accepted: 60, rejected: 0, acceptedSumMs: 60_000) == .ok)
    }

    @Test("no RR at all is 'RR unavailable', not 'too few beats' (spec §4.1)")
    func rrUnavailable() {
        #expect(Quality.verdict(accepted: 0, rejected: 0, acceptedSumMs: 0) == .fail(.rrUnavailable))
        #expect(QualityFailure.rrUnavailable.sentence.hasPrefix("RR intervals not available — ensure H10 is snug"))
    }

    @Test("too many artifacts is named before too few beats when both apply (spec §5.1)")
    func reasonOrder() {
        #expect(Quality.verdict(accepted: 10, rejected: 10, acceptedSumMs: 10_000) == .fail(.tooManyArtifacts))
    }
}

extension QualityTests {
    @Test("each verdict has one code that reads back to it; other text names none (store and export, spec §7.4)")
    func codes() {
        let verdicts: [Quality] = [.ok] + QualityFailure.allCases.map { .fail($0) }
        #expect(verdicts.map(\.code) == ["ok", "too_few_beats", "too_many_artifacts", "rr_unavailable"])
        for verdict in verdicts { #expect(Quality(code: verdict.code) == verdict) }
        for text in ["", "OK", "fail", "too few beats", "ok "] { #expect(Quality(code: text) == nil, "\(text)") }
    }
}

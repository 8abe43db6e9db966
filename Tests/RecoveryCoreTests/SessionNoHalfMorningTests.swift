import Testing

@testable import RecoveryCore

/// "A session never stores a half morning" (RecoveryDeck spec §11.2 item 5; DESIGN §4): seeded random
/// interruptions at random instants, and every save that happens carries a whole morning.
struct SessionNoHalfMorningTests {
    @Test("Seeded random drop-outs, silences, cancels and presses: every save is a whole morning (spec §6.1, §7.2)")
    func everySaveIsWhole() throws {
        var random = SeededRandom(seed: 20_260_310, stream: 7)
        var saves = 0
        for _ in 0..<300 {
            var h = SessionHarness()
            h.startMorning()
            if random.chance(0.2) { h.strap.rrIncluded = false }
            if random.chance(0.15) { h.strap.pattern = [1024, 1024, 2048] }
            var steps = 0
            while h.saves.isEmpty && steps < 12 && h.session.phase != .idle {
                steps += 1
                h.run(untilMs: h.nowMs + Int64(random.uniform(500, 40_000)))
                switch Int(random.uniform(0, 8)) {
                case 0:
                    h.send(.strapDisconnected)
                    h.strap.sending = false
                case 1:
                    h.strap.sending = true
                    h.strap.lastNotifyMs = nil
                    h.strap.startMs = h.nowMs
                case 2: h.send(.go(.long))
                case 3: h.send(.go(.short))
                case 4: if random.chance(0.2) { h.send(.key(.star)) }
                case 5: h.strap.sending = random.chance(0.7)
                default: break
                }
            }
            h.run(untilMs: h.nowMs + 400_000)
            for (m, _) in h.saves {
                saves += 1
                try Self.expectWhole(m, timings: h.session.timings)
            }
            #expect(h.saves.count <= 1)
        }
        // The random walk must actually reach the end often enough to mean something.
        #expect(saves > 30)
    }

    static func expectWhole(_ m: MorningMeasurement, timings: SessionTimings) throws {
        switch m.quality {
        case .ok:
            let hrv = try #require(m.hrv)
            #expect(hrv.rmssdMs != nil && hrv.accepted >= 45)
            #expect(m.meanHRBpm == hrv.meanHRBpm)
        case .fail(let failure):
            // Only the degraded (HR-only) morning is saved with a failed quality, and then rMSSD is null.
            #expect(failure == .rrUnavailable)
            #expect(m.hrv == nil)
        }
        #expect(m.marks.captureEndMs > m.marks.captureStartMs)
        #expect(m.marks.captureEndMs - m.marks.captureStartMs <= timings.captureMaxMs)
        switch m.orthostaticStatus {
        case .completed:
            let o = try #require(m.orthostatic)
            #expect(o.avgLyingHR > 30 && o.avgStandingHR > 30)
            let standStart = try #require(m.marks.standStartMs)
            let standEnd = try #require(m.marks.standEndMs)
            let lyingEnd = try #require(m.marks.lyingEndMs)
            #expect(standEnd - standStart == timings.standingMs)
            #expect(standStart - lyingEnd == timings.standCueMs)
            #expect(lyingEnd >= m.marks.captureEndMs + timings.lyingMs)
            // Resumed or not, the stored marks rebuild what the session measured.
            #expect(OrthostaticCalculator.result(rr: m.rawRR, heartRates: m.heartRates, marks: m.marks) == o)
        case .skipped:
            #expect(m.orthostatic == nil && m.marks.standStartMs == nil)
        case .failed:
            Issue.record("an orthostatic part without data was saved")
        }
    }
}

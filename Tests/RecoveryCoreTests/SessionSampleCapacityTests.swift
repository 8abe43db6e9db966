import Testing

@testable import RecoveryCore

/// The morning's RR and heart-rate stores are fixed-capacity rings (DESIGN §4): a morning that outlasts them
/// still saves, with the samples before the overflow, and says how many it refused.
struct SessionSampleCapacityTests {
    /// Runs a morning that the strap interrupts during standing, again and again at seeded moments, until its
    /// stores have overflowed; then lets the last standing finish.
    /// An hour of session time: far more than the dozen or so drop-outs that fill the stores take.
    static let limitMs: Int64 = 3_600_000

    static func interruptedMorning(seed: UInt64) -> SessionHarness {
        var random = SeededRandom(seed: seed)
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureLyingHR)
        for _ in 0..<40 where h.session.refusedSamples.rr == 0 {
            guard let standing = h.run(until: .captureStanding, limitMs: Self.limitMs) else { break }
            // Lost 5–50 s into standing, for 8 s (past the 5 s of silence that pauses the session); the session
            // resumes by itself 15 s after the strap is back and reruns settle, lying, cue and standing.
            let lostAt = standing + 5_000 + Int64(random.uniform(0, 45_000))
            h.run(untilMs: lostAt)
            h.strap.lostMs = lostAt..<(lostAt + 8_000)
            h.run(until: .offeringResume, limitMs: Self.limitMs)
        }
        h.run(until: .saving, limitMs: Self.limitMs)
        return h
    }

    @Test("A morning past its stores' capacity is saved with the samples before it, and the overflow is counted")
    func overflowCountedAndMorningSaved() throws {
        let capacity = SessionCapacity.standard
        for seed: UInt64 in [1, 2, 3] {
            let h = Self.interruptedMorning(seed: seed)
            // The morning is saved, once, and its rMSSD is the capture's (taken before any overflow).
            #expect(h.saves.count == 1)
            let m = try #require(h.saves.first?.0)
            #expect(abs((m.hrv?.rmssdMs ?? 0) - SessionMorningFlowTests.alternatingRMSSD) < 1e-9)
            #expect(m.quality == .ok)
            // The RR store is full, holding exactly the first `capacity` RR received, in order; the rest refused.
            // Notifications the harness delivers after the save (in the same run) are not the morning's.
            let savedAt = try #require(h.log.first { if case .save = $0.action { true } else { false } }?.atMs)
            let notifications = h.delivered.filter { $0.atMs < savedAt }
            let received = notifications.reduce(0) { $0 + $1.rr }
            let refused = h.session.refusedSamples
            #expect(received > capacity.rrIntervals)
            #expect(m.rawRR.count == capacity.rrIntervals)
            #expect(refused.rr == received - capacity.rrIntervals)
            #expect(zip(m.rawRR, m.rawRR.dropFirst()).allSatisfy { $0.receivedAtMs <= $1.receivedAtMs })
            #expect(m.heartRates.count + refused.heartRates == notifications.count)
            // The person (over SSH) and the analytics table are told how many were not kept.
            let record = try #require(
                h.log.compactMap { if case .record(let r) = $0.action, r.name == "samples_refused" { r } else { nil } }
                    .first)
            #expect(record.value == Double(refused.rr + refused.heartRates))
            #expect(record.detail == "rr=\(refused.rr) hr=\(refused.heartRates)")
            #expect(
                h.sentences.contains(
                    "The strap sent more than a morning holds: \(refused.rr) RR and \(refused.heartRates) heart rate "
                        + "readings after the first \(capacity.rrIntervals) RR were not kept."))
            #expect(h.session.snapshot(atMs: h.nowMs).refusedSamples == refused.rr + refused.heartRates)
        }
    }

    @Test("After a morning that overflowed, the next starts with nothing refused and saves whole, saying nothing more")
    func nextMorningStartsAtZero() throws {
        var h = Self.interruptedMorning(seed: 4)
        #expect(h.session.refusedSamples.rr > 0)
        h.send(.saved(PanelReadout(composite: .green, channels: [])))
        h.send(.measure(overwrite: true))
        #expect(h.session.refusedSamples == (0, 0))
        h.strap.lostMs = nil
        h.strap.standAtMs = nil
        let savesBefore = h.saves.count
        h.send(.strapConnected(address: nil, batteryPercent: nil))
        h.run(until: .saving, limitMs: Self.limitMs)
        #expect(h.saves.count == savesBefore + 1)
        let m = try #require(h.saves.last?.0)
        #expect(m.rawRR.count < SessionCapacity.standard.rrIntervals)
        #expect(h.session.refusedSamples == (0, 0))
        #expect(h.records.filter { $0 == "samples_refused" }.count == 1)  // the first morning's only
    }
}

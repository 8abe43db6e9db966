import Testing

@testable import RecoveryCore

/// A daemon that did not run for seconds (stopped, swapped, throttled) leaves a hole in what the phase
/// collected; the morning must not be saved as measured.
struct SessionStallTests {
    @Test("a stall while standing ends the session with a sentence and saves nothing")
    func stallWhileStanding() throws {
        var h = SessionHarness()
        h.startMorning()
        #expect(h.run(until: .captureStanding) != nil)
        let actions = h.send(.stalled(gapMs: 20_000))
        #expect(h.session.phase == .idle)
        #expect(actions.contains(.disconnectStrap))
        let said = actions.compactMap { if case .say(let s) = $0 { s } else { nil } }
        #expect(said == [
            "The box itself stopped for 20 s during the morning (overloaded, throttled or suspended), so its numbers "
                + "would be wrong: nothing was saved; press GO to measure again."
        ])
        h.run(untilMs: h.nowMs + 120_000)
        #expect(h.saves.isEmpty, "a morning with a 20 s hole is never saved")
    }

    @Test("a stall while connecting or idle changes nothing")
    func stallOutsideCollection() {
        var h = SessionHarness()
        #expect(h.send(.stalled(gapMs: 20_000)).isEmpty)
        h.send(.go(.short))
        #expect(h.session.phase == .connecting)
        #expect(h.send(.stalled(gapMs: 20_000)).isEmpty)
        #expect(h.session.phase == .connecting)
    }

    @Test("the stall decision: both session and real lateness past their limits")
    func decision() {
        #expect(MorningSession.isStall(lateMs: 20_000, lateRealMs: 20_000))
        #expect(!MorningSession.isStall(lateMs: 5_000, lateRealMs: 5_000), "at the limit is not a stall")
        #expect(!MorningSession.isStall(lateMs: 25_000, lateRealMs: 100), "a fast test clock's ordinary jitter")
        #expect(!MorningSession.isStall(lateMs: 300, lateRealMs: 800))
    }
}

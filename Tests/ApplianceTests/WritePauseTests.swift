import Platform
import Testing

@testable import Appliance

/// The restore's pause of the daemon's writes, with a hand-moved real clock.
@Suite struct WritePauseTests {
    let restorer = FileDescriptor(rawValue: 7)
    let other = FileDescriptor(rawValue: 9)

    @Test("a pause holds until resumed, and a resume with no pause held says so")
    func pauseAndResume() {
        var pause = WritePause(limitMs: 300_000)
        #expect(!pause.isPaused(nowRealMs: 1_000))
        let r1 = pause.resume()
        #expect(!r1)
        #expect(pause.pause(by: restorer, nowRealMs: 1_000) == .granted)
        #expect(pause.isPaused(nowRealMs: 1_000))
        #expect(pause.holder == restorer)
        #expect(pause.nextDeadlineRealMs == 301_000)
        let r2 = pause.resume()
        #expect(r2)
        #expect(!pause.isPaused(nowRealMs: 2_000))
        #expect(pause.nextDeadlineRealMs == nil)
    }

    @Test("only the holder leaving ends the pause")
    func holderLeaving() {
        var pause = WritePause(limitMs: 300_000)
        _ = pause.pause(by: restorer, nowRealMs: 0)
        let r3 = pause.clientLeft(other)
        #expect(!r3)
        #expect(pause.isPaused(nowRealMs: 1))
        let r4 = pause.clientLeft(restorer)
        #expect(r4)
        #expect(!pause.isPaused(nowRealMs: 2))
        let r5 = pause.clientLeft(restorer)
        #expect(!r5, "gone once, not twice")
    }

    @Test("the limit ends a pause nobody resumes, to the millisecond")
    func limitEndsIt() {
        var pause = WritePause(limitMs: 300_000)
        _ = pause.pause(by: restorer, nowRealMs: 5_000)
        #expect(!pause.hasExpired(nowRealMs: 304_999))
        #expect(pause.isPaused(nowRealMs: 304_999))
        #expect(pause.hasExpired(nowRealMs: 305_000))
        #expect(!pause.isPaused(nowRealMs: 305_000))
        let r6 = pause.resume()
        #expect(r6, "the caller ends the expired pause")
        #expect(!pause.hasExpired(nowRealMs: 400_000))
    }

    @Test("one holder: asking again never moves the end, another client is refused and may not resume it")
    func oneHolderHardLimit() {
        var pause = WritePause(limitMs: 300_000)
        #expect(pause.pause(by: restorer, nowRealMs: 0) == .granted)
        #expect(pause.pause(by: restorer, nowRealMs: 299_000) == .alreadyHeld)
        #expect(pause.nextDeadlineRealMs == 300_000, "renewed past its limit")
        #expect(pause.pause(by: other, nowRealMs: 1_000) == .heldByAnother)
        let byOther = pause.resume(by: other)
        #expect(!byOther)
        #expect(pause.holder == restorer)
        let byHolder = pause.resume(by: restorer)
        #expect(byHolder)
        #expect(!pause.isHeld)
    }
}

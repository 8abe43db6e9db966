import Testing

@testable import RecoveryCore

/// RecoveryDeck spec §5.1 / DESIGN §3: settle 15.0 s, then accepted sum ≥ 60 000 ms with ≥ 45 accepted, at most
/// 90 s after settle.
@Suite struct RMSSDWindowTests {
    /// Feeds `rr` to a window starting at 0, beat i arriving at `times[i]`; returns every progress.
    func run(_ rr: [Double], at times: [Int64], window: inout RMSSDWindow) -> [RMSSDWindow.Progress] {
        zip(rr, times).map { window.append($0, at: $1) }
    }

    func completed(_ progress: RMSSDWindow.Progress) -> HRVWindowResult? {
        if case .complete(let result) = progress { return result }
        return nil
    }

    @Test("a beat at 14 999 ms is settle (discarded), one at 15 000 ms is captured (spec §5.1 settle 15.0 s)")
    func settleEdge() {
        var window = RMSSDWindow(startMs: 0, configuration: .spec20)
        #expect(window.append(1000, at: 14_999) == .settling)
        #expect(window.filter.accepted == 0)
        #expect(window.append(1000, at: 15_000) == .capturing)
        #expect(window.filter.accepted == 1)
        #expect(window.captureStartMs == 15_000)
    }

    @Test("settle beats prime the reference: the first captured beat is judged by the 20 % rule")
    func settlePrimes() {
        var window = RMSSDWindow(startMs: 1000, configuration: .spec20)
        _ = window.append(1000, at: 15_999)
        _ = window.append(1300, at: 16_000)  // 30 % off the last settle beat
        #expect(window.filter.rejected == 1)
    }

    @Test("44 accepted beats do not close the window, the 45th does (spec §5.1: ≥ 45 accepted)")
    func beatFloor() {
        // 1500 ms beats: the 60 000 ms sum is reached at beat 40, so the count is the binding floor.
        var window = RMSSDWindow(startMs: 0, configuration: .spec20)
        let rr = Array(repeating: 1500.0, count: 45)
        let times = (0..<45).map { Int64(15_000 + 1500 * $0) }
        let progress = run(rr, at: times, window: &window)
        #expect(progress[43] == .capturing)  // 44 accepted, 66 000 ms
        let result = completed(progress[44])
        #expect(result?.metrics.accepted == 45)
        #expect(result?.quality == .ok)
        #expect(result?.captureEndMs == times[44])
    }

    @Test("59 999 ms of accepted RR does not close the window, 60 000 ms does (spec §5.1: sum ≥ 60 000 ms)")
    func sumFloor() {
        // 59 beats of 1000 then 999: 60 accepted, 59 999 ms → still capturing.
        var a = RMSSDWindow(startMs: 0, configuration: .spec20)
        let rrA = Array(repeating: 1000.0, count: 59) + [999]
        let progressA = run(rrA, at: (0..<60).map { Int64(15_000 + 1000 * $0) }, window: &a)
        #expect(progressA.last == .capturing)
        #expect(a.accumulator.sumMs == 59_999)
        // 60 beats of 1000: exactly 60 000 ms → complete on the 60th.
        var b = RMSSDWindow(startMs: 0, configuration: .spec20)
        let progressB = run(
            Array(repeating: 1000.0, count: 60), at: (0..<60).map { Int64(15_000 + 1000 * $0) }, window: &b)
        #expect(progressB[58] == .capturing)
        #expect(completed(progressB[59])?.acceptedSumMs == 60_000)
    }

    @Test("at 90 s after settle the window closes with quality fail when a floor is unmet (spec §5.1)")
    func deadline() {
        var window = RMSSDWindow(startMs: 0, configuration: .spec20)
        for i in 0..<40 { _ = window.append(1000, at: Int64(15_000 + 1000 * i)) }
        #expect(window.deadlineMs == 105_000)
        #expect(window.advance(to: 104_999) == .capturing)
        let result = completed(window.advance(to: 105_000))
        #expect(result?.quality == .fail(.tooFewBeats))
        #expect(result?.metrics.accepted == 40)
        #expect(result?.captureEndMs == 105_000)
        // Closed: later beats change nothing.
        #expect(completed(window.append(1000, at: 105_500)) == result)
    }

    @Test("a beat arriving exactly at the deadline is not counted (capture is [settle, settle + 90 s))")
    func beatAtDeadline() {
        var window = RMSSDWindow(startMs: 0, configuration: .spec20)
        for i in 0..<44 { _ = window.append(1000, at: Int64(15_000 + 1000 * i)) }
        _ = window.append(1000, at: 104_999)  // 45th accepted, sum 45 000: still short
        let result = completed(window.append(1000, at: 105_000))
        #expect(result?.metrics.accepted == 45)
        #expect(result?.quality == .fail(.tooFewBeats))
    }

    @Test("exactly 20 % artifacts passes and one more fails, inside the window (spec §5.1 step 4)")
    func ratioInWindow() {
        // 48 accepted beats of 1250 ms reach 60 000 ms exactly on the 48th. Out-of-range beats (250 ms) do not
        // move the reference, so they count as rejections without disturbing the rest.
        func window(withRejections k: Int) -> HRVWindowResult? {
            var w = RMSSDWindow(startMs: 0, configuration: .spec20)
            var rr = Array(repeating: 250.0, count: k) + Array(repeating: 1250.0, count: 48)
            rr.swapAt(0, rr.count - 2)  // a rejection is not only at the start
            var last: RMSSDWindow.Progress = .settling
            for (i, x) in rr.enumerated() { last = w.append(x, at: Int64(15_000 + 1000 * i)) }
            return completed(last)
        }
        let twelve = window(withRejections: 12)  // 12 / 60 = 0.20
        #expect(twelve?.metrics.artifactRatio == 0.2)
        #expect(twelve?.quality == .ok)
        let thirteen = window(withRejections: 13)  // 13 / 61 = 0.213
        #expect(thirteen?.quality == .fail(.tooManyArtifacts))
    }

    @Test("no RR during the capture is 'RR unavailable' (HR-only strap, spec §4.1)")
    func noRR() {
        var window = RMSSDWindow(startMs: 0, configuration: .spec20)
        _ = window.append(1000, at: 3000)  // settle only
        #expect(completed(window.advance(to: 200_000))?.quality == .fail(.rrUnavailable))
    }

    @Test("whole-list morning window uses cumulative RR time as the clock (rr analyze --window morning)")
    func listMorningWindow() {
        // Beat i (1-based) of a 1000 ms list ends at i·1000 ms: beats 1–14 settle (< 15 000), beat 15 is the first
        // captured, and the 60th captured (beat 74, at 74 000 ms) brings the sum to 60 000 ms.
        let result = HRVAnalysis.analyze(Array(repeating: 1000.0, count: 200), window: .morning, rule: .spec20)
        #expect(result.metrics.accepted == 60)
        #expect(result.captureStartMs == 15_000)
        #expect(result.captureEndMs == 74_000)
        #expect(result.quality == .ok)
        // The pattern rule judges beat 74 once beats 75 and 76 have arrived: the window closes two beats later,
        // with the same 60 beats.
        let pattern = HRVAnalysis.analyze(Array(repeating: 1000.0, count: 200), window: .morning)
        #expect(pattern.metrics.accepted == 60 && pattern.captureEndMs == 76_000 && pattern.quality == .ok)
        // A list that ends early closes where it ends, with the floors it reached.
        let short = HRVAnalysis.analyze(Array(repeating: 1000.0, count: 40), window: .morning)
        #expect(short.quality == .fail(.tooFewBeats))
        #expect(short.metrics.accepted == 26)
    }

    @Test("a morning window accepts into a fixed buffer that is never full (no allocation per beat)")
    func bufferNeverRefuses() {
        var window = RMSSDWindow(startMs: 0, configuration: .spec20)
        var t: Int64 = 15_000
        while !window.isComplete {  // 300 ms beats, the fastest kept: 300 in 90 s
            _ = window.append(300, at: t)
            t += 300
        }
        #expect(window.accumulator.count == 200)  // 200 × 300 = 60 000 ms
        #expect(window.acceptedIntervals == Array(repeating: 300, count: 200))  // every accepted RR found a slot
    }
}

extension RMSSDWindowTests {
    @Test("restart gives a fresh window at the new start, with nothing carried over (retry after a quality fail)")
    func restartIsFresh() {
        var window = RMSSDWindow(startMs: 0, configuration: .spec20)
        for i in 0..<10 { _ = window.append(1000, at: Int64(15_000 + 1000 * i)) }
        _ = window.advance(to: 200_000)
        #expect(window.isComplete)
        window.restart(at: 300_000)
        #expect(!window.isComplete)
        #expect(window.filter.accepted == 0 && window.acceptedIntervals.isEmpty)
        #expect(window.append(1000, at: 314_999) == .settling)
        #expect(window.deadlineMs == 405_000)
    }
}

extension RMSSDWindow.Configuration {
    /// The spec's morning window judged by the spec's 20 % rule: the edges these tests pin were written for it.
    static var spec20: Self {
        var configuration = Self.morning
        configuration.artifactRule = .spec20
        return configuration
    }
}

import Testing

@testable import RecoveryCore

/// RecoveryDeck spec §5.2–5.3: phase mean HR (dense RR vs BPM), peak standing HR, gaps.
@Suite struct OrthostaticCalculatorTests {
    /// RR of `raw` units every beat from `start`, stamped at each beat's end, `count` beats.
    func beats(raw: UInt16, from start: Int64, count: Int) -> [RRInterval] {
        var t = Double(start)
        return (0..<count).map { _ in
            t += Double(raw) * 1000 / 1024
            return RRInterval(raw: raw, receivedAtMs: Int64(t.rounded(.up)))
        }
    }

    func readings(_ bpm: [UInt16], from start: Int64) -> [HeartRateReading] {
        bpm.enumerated().map { HeartRateReading(bpm: $1, receivedAtMs: start + 1000 * Int64($0 + 1) - 1) }
    }

    @Test("RR covering 80 % of the phase is dense: HR = 60000/mean(RR), not the BPM mean (spec §5.2)")
    func denseAtEdge() {
        // 24 beats of 1000 ms (raw 1024) in a 30 s phase: 24 000 ms = 0.8 × 30 000 → dense → 60 bpm.
        let rr = beats(raw: 1024, from: 0, count: 24)
        let hr = readings(Array(repeating: 70, count: 30), from: 0)
        let mean = OrthostaticCalculator.meanHeartRate(rr: rr, heartRates: hr, phase: 0..<30_000)
        #expect(mean == .init(bpm: 60, source: .rr))
    }

    @Test("RR just under 80 % of the phase is not dense: the mean of BPM values is used (spec §5.2)")
    func sparseJustBelowEdge() {
        // 23 beats of 1000 ms + one of raw 1023 (999.0234375 ms) = 23 999.02 ms < 24 000 → BPM mean.
        let rr = beats(raw: 1024, from: 0, count: 23) + [RRInterval(raw: 1023, receivedAtMs: 24_000)]
        let hr = readings([70, 72, 74, 76], from: 0)
        let mean = OrthostaticCalculator.meanHeartRate(rr: rr, heartRates: hr, phase: 0..<30_000)
        #expect(mean == .init(bpm: 73, source: .bpm))
    }

    @Test("RR from a notification without contact (rate 0) do not count: noise splitting beats would double the rate")
    func noContactRRDoNotCount() {
        // 30 beats of 1000 ms, one notification each; the notifications of beats 10–12 say rate 0 and carry each
        // beat split in two (300 + 700 ms). Counted, the mean RR over 33 intervals is 909 ms (66 bpm) for a heart
        // at 60. Left out: 27 beats, 27 000 ms ≥ 80 % of 30 s, dense → exactly 60 bpm.
        var rr: [RRInterval] = []
        var hr: [HeartRateReading] = []
        for k in 1...30 {
            let at = Int64(k) * 1000
            let contact = !(10...12).contains(k)
            let raws: [UInt16] = contact ? [1024] : [307, 717]
            rr += raws.map { RRInterval(raw: $0, receivedAtMs: at) }
            hr.append(HeartRateReading(bpm: contact ? 60 : 0, receivedAtMs: at))
        }
        let mean = OrthostaticCalculator.meanHeartRate(rr: rr, heartRates: hr, phase: 0..<30_001)
        #expect(mean == .init(bpm: 60, source: .rr))
    }

    @Test("samples outside the half-open phase [start, end) do not count")
    func phaseBounds() {
        let rr = [
            RRInterval(raw: 512, receivedAtMs: 999), RRInterval(raw: 1024, receivedAtMs: 1000),
            RRInterval(raw: 1024, receivedAtMs: 2000),
        ]
        let hr = [
            HeartRateReading(bpm: 90, receivedAtMs: 999), HeartRateReading(bpm: 60, receivedAtMs: 1000),
            HeartRateReading(bpm: 200, receivedAtMs: 2000),
        ]
        // Phase [1000, 2000): one RR of 1000 ms covers 1000/1000 → dense → 60; peak is 60 (90 and 200 outside).
        #expect(OrthostaticCalculator.meanHeartRate(rr: rr, heartRates: hr, phase: 1000..<2000)?.bpm == 60)
        #expect(OrthostaticCalculator.peakHeartRate(heartRates: hr, phase: 1000..<2000) == 60)
    }

    @Test("peak standing HR is the max BPM value; a short RR's instantaneous HR does not count (spec §5.2)")
    func peakIsMaxBPM() {
        // A 400 ms RR would read as 150 bpm; the strap's BPM never went past 96.
        let rr = beats(raw: 700, from: 0, count: 20) + [RRInterval(raw: 410, receivedAtMs: 14_000)]
        let hr = readings([80, 88, 96, 92, 85, 0], from: 0)  // 0 = no contact: not a heart rate
        #expect(OrthostaticCalculator.peakHeartRate(heartRates: hr, phase: 0..<60_000) == 96)
        // The BPM mean ignores the 0 too: (80 + 88 + 96 + 92 + 85) / 5 = 88.2 (RR cover 14 s of 60: not dense).
        #expect(
            OrthostaticCalculator.meanHeartRate(rr: rr, heartRates: hr, phase: 0..<60_000)
                == .init(bpm: 88.2, source: .bpm))
    }

    @Test("gapAvg = standing − lying, gapPeak = peak − lying (spec §5.3)")
    func gaps() {
        // Lying [0, 30 000): 30 beats of 1000 ms → 60 bpm. Standing [33 000, 93 000): 79 beats of 750 ms (raw 768)
        // = 59 250 ms, dense → 80 bpm. Peak BPM 101.
        let rr = beats(raw: 1024, from: 0, count: 30) + beats(raw: 768, from: 33_000, count: 79)
        let hr =
            readings(Array(repeating: 60, count: 30), from: 0)
            + readings([70, 90, 101, 95] + Array(repeating: 80, count: 56), from: 33_000)
        let result = OrthostaticCalculator.result(rr: rr, heartRates: hr, lying: 0..<30_000, standing: 33_000..<93_000)
        #expect(result?.avgLyingHR == 60)
        #expect(result?.avgStandingHR == 80)
        #expect(result?.peakStandingHR == 101)
        #expect(result?.gapAvg == 20)
        #expect(result?.gapPeak == 41)
    }

    @Test("missing inputs give missing outputs: no standing data, no result (spec §5.3)")
    func missingStanding() {
        let rr = beats(raw: 1024, from: 0, count: 30)
        let hr = readings(Array(repeating: 60, count: 30), from: 0)
        #expect(
            OrthostaticCalculator.result(rr: rr, heartRates: hr, lying: 0..<30_000, standing: 33_000..<93_000) == nil)
        #expect(
            OrthostaticCalculator.meanHeartRate(rr: [RRInterval](), heartRates: [HeartRateReading](), phase: 0..<1000)
                == nil)
        let marks = PhaseMarks(settleStartMs: 0, captureStartMs: 15_000, captureEndMs: 0, lyingEndMs: nil)
        #expect(OrthostaticCalculator.result(rr: rr, heartRates: hr, marks: marks) == nil)
    }

    @Test("works on the session's ring buffers as well as arrays (no copy on the daemon path)")
    func ringBuffers() {
        var rr = RingBuffer<RRInterval>(capacity: SessionCapacity.standard.rrIntervals)
        var hr = RingBuffer<HeartRateReading>(capacity: SessionCapacity.standard.heartRates)
        for interval in beats(raw: 1024, from: 0, count: 30) { rr.append(interval) }
        for reading in readings(Array(repeating: 61, count: 30), from: 0) { hr.append(reading) }
        #expect(OrthostaticCalculator.meanHeartRate(rr: rr, heartRates: hr, phase: 0..<30_000)?.bpm == 60)
    }
}

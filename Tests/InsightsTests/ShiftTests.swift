import RecoveryCore
import Testing

@testable import Insights

@Suite("Change points (Health Engine: \"change point at 45\"; Shao & Zhang 2010 self-normalised CUSUM)")
struct ShiftTests {
    /// Shao & Zhang's G straight from its definition, O(n²): T(k)² / V(k) with V(k) the squared within-segment
    /// partial sums about each segment's own mean, divided by n².
    func bruteForceStatistic(_ x: [Double], minimumSegment m: Int) -> (Double, Int) {
        let n = x.count
        let mean = x.reduce(0, +) / Double(n)
        var best = (-1.0, 0)
        for k in m...(n - m) {
            let cusum = x[..<k].reduce(0) { $0 + $1 - mean }
            let leftMean = x[..<k].reduce(0, +) / Double(k)
            let rightMean = x[k...].reduce(0, +) / Double(n - k)
            var v = 0.0
            for t in 1...k {
                let partial = x[..<t].reduce(0) { $0 + $1 - leftMean }
                v += partial * partial
            }
            for t in k..<n {
                let partial = x[t...].reduce(0) { $0 + $1 - rightMean }
                v += partial * partial
            }
            let g = (cusum * cusum / Double(n)) / (v / Double(n * n))
            if g > best.0 { best = (g, k) }
        }
        return best
    }

    @Test("the O(n) statistic equals the definition computed the long way (seeded series, 1e-9 relative)")
    func statisticMatchesDefinition() throws {
        var rng = SeededGenerator(seed: 31)
        for n in [14, 45, 90, 150] {
            var x = Calibration.autoregressive(rho: 0.6, n: n, rng: &rng)
            for t in (n / 3)..<n { x[t] += 1.2 }
            let m = ShiftTest.minimumSegment(n)
            let (g, k) = try #require(ShiftTest.statistic(x, minimumSegment: m))
            let (want, wantK) = bruteForceStatistic(x, minimumSegment: m)
            #expect(abs(g - want) <= 1e-9 * want, "n = \(n): \(g) vs \(want)")
            #expect(k == wantK)
        }
    }

    @Test("a 1.5 SD drop after day 70 of 120 is found where it happened, with r below −0.25")
    func plantedShiftIsFound() throws {
        var rng = SeededGenerator(seed: 32)
        var x = Calibration.autoregressive(rho: 0.5, n: 120, rng: &rng)
        let sd = 1 / (1 - 0.25).squareRoot()
        for t in 70..<120 { x[t] -= 1.5 * sd }
        let shift = try #require(ShiftTest(resamples: 500).run(x, seed: 1))
        #expect(shift.p < 0.01)
        #expect(abs(shift.split - 70) <= 7, "split at \(shift.split)")
        #expect(shift.after < shift.before && shift.r < -Scan.minimumEffect)
    }

    @Test("no shift, strong autocorrelation, short series: rejects near 5 %, where iid critical values reject ~15 %")
    func falsePositiveRateOnAutocorrelatedSeries() {
        // 300 AR(1) series, ρ = 0.7, n = 60 (the floor's neighbourhood), 200 resamples each. A calibrated test
        // rejects Binomial(300, 0.05): SE 0.0126, so ±3.4 SE is [0.007, 0.093]. The same statistic against an
        // iid null (Shao–Zhang's tabulated critical values) rejects ≈ 0.14 here (4000 seeded trials), outside it.
        var rejected = 0
        var trials = 0
        for i in 0..<300 {
            var rng = SeededGenerator(seed: 33, stream: i)
            let x = Calibration.autoregressive(rho: 0.7, n: 60, rng: &rng)
            guard let s = ShiftTest(resamples: 200).run(x, seed: rng.next()) else { continue }
            trials += 1
            if s.p < 0.05 { rejected += 1 }
        }
        let rate = Double(rejected) / Double(trials)
        #expect(trials == 300)
        #expect(rate >= 0.007 && rate <= 0.093, "false-positive rate \(rate)")
    }

    @Test("a constant series or one too short for two segments of 7 has no shift test")
    func degenerate() {
        #expect(ShiftTest(resamples: 50).run([Double](repeating: 4, count: 60), seed: 1) == nil)
        #expect(ShiftTest(resamples: 50).run((0..<13).map(Double.init), seed: 1) == nil)
        #expect(ShiftTest.minimumSegment(45) == 7 && ShiftTest.minimumSegment(365) == 37)
    }

    @Test("the scan reports a planted drop in rMSSD as a shift, dated, in the same family as the associations")
    func scanReportsAShift() throws {
        var days = SyntheticPerson(seed: 12, effects: HabitEffect.withoutEffects).plantedRecords(count: 140)
        for i in 80..<140 { days[i].measurement!.hrv!.rmssdMs! *= 0.75 }
        let report = Scan(resamples: 400, seed: 6).run(days: days)
        let s = try #require(report.shifts.first { $0.outcome == .rmssd })
        #expect(s.survived)
        let drop = days[80].date.dayNumber
        #expect(abs(s.since.dayNumber - drop) <= 7, "since \(s.since)")
        // A 25 % drop, measured against the AR(1) day-to-day swings of the synthetic person: within 10 points.
        #expect(abs(s.percent + 25) <= 10, "\(s.sentence)")
        #expect(s.sentence.hasPrefix("Your rMSSD has been \(Int(abs(s.percent).rounded())) % lower since \(s.since) ("))
        #expect(s.tier == .t1)
        #expect(report.tested == report.family.filter { !$0.isCheck }.count + report.shifts.count)
    }

    @Test("a series with 44 values waits one more day for its shift test; at 45 it is tested")
    func floorIs45() throws {
        let days = SyntheticPerson(seed: 13).plantedRecords(count: 45)
        let short = Scan(resamples: 100, seed: 1).run(days: Array(days.prefix(44)))
        #expect(short.shifts.isEmpty)
        let wait = try #require(short.pending.first { $0.analysis == .changePoint && $0.subject == "rMSSD" })
        #expect(wait.have == 44 && wait.moreDays == 1)
        let enough = Scan(resamples: 100, seed: 1).run(days: days)
        #expect(enough.shifts.count == 5)
        #expect(enough.tested == 5)  // nothing else has its 60 days yet
        #expect(!enough.pending.contains { $0.analysis == .changePoint })
    }
}

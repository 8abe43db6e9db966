import Testing

@testable import Insights

@Suite("The engine's association test (Health Engine: null-distribution block bootstrap, Pearson r)")
struct AssociationTestTests {
    @Test("Pearson r and the textbook t-test p match scipy 1.17.1 on a literal pair")
    func pearsonAndTextbookP() throws {
        // Provenance: scipy.stats.pearsonr([1..6], [2,1,4,3,7,5]) → r 0.7917946548886295, p 0.06051140336275671.
        let r = try #require(pearson([1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 7, 5]))
        #expect(abs(r - 0.7917946548886295) < 1e-14)
        #expect(abs(StudentT.pearsonP(r: r, n: 6) - 0.06051140336275671) < 1e-10)
        // Provenance: 2·scipy.stats.t.sf(t, df).
        #expect(abs(StudentT.twoSidedP(t: 2.0, df: 10) - 0.07338803477074037) < 1e-12)
        #expect(abs(StudentT.twoSidedP(t: 1.0, df: 3) - 0.3910022189557705) < 1e-12)
        #expect(abs(StudentT.twoSidedP(t: 4.5, df: 88) - 2.0698646600086696e-05) < 1e-15)
        #expect(abs(StudentT.twoSidedP(t: 0.3, df: 363) - 0.7643488741520406) < 1e-12)
    }

    @Test("a constant side or too few days gives no test rather than a number")
    func degenerate() {
        let test = AssociationTest(resamples: 100)
        #expect(test.run(x: [Double](repeating: 1, count: 30), y: (0..<30).map(Double.init), seed: 1) == nil)
        #expect(test.run(x: [1, 2, 3, 4, 5], y: [2, 1, 3, 5, 4], seed: 1) == nil)
        #expect(pearson([1, 1, 1], [1, 2, 3]) == nil)
    }

    @Test("same seed, same answer; p is (1 + exceedances)/(B + 1), so never below 1/(B+1)")
    func seededAndBounded() throws {
        var rng = SeededGenerator(seed: 11)
        let x = Calibration.autoregressive(rho: 0.6, n: 120, rng: &rng)
        let y = x.map { 0.9 * $0 + rng.gaussian() * 0.3 }
        let test = AssociationTest(resamples: 500)
        let a = try #require(test.run(x: x, y: y, seed: 99))
        let b = try #require(test.run(x: x, y: y, seed: 99))
        #expect(a == b)
        #expect(abs(a.p - 1.0 / 501.0) < 1e-15)  // nothing in an independent resample reaches r ≈ 0.95
        #expect(a.ciLow <= a.r && a.r <= a.ciHigh && a.ciLow > 0.8)
    }

    @Test("autocorrelated series: the block null is widened, and the plain block bootstrap is not")
    func wideningFollowsAutocorrelation() throws {
        var rng = SeededGenerator(seed: 5)
        let x = Calibration.autoregressive(rho: 0.85, n: 90, rng: &rng)
        let y = Calibration.autoregressive(rho: 0.85, n: 90, rng: &rng)
        let engine = try #require(AssociationTest(resamples: 1000).run(x: x, y: y, seed: 1))
        let plain = try #require(AssociationTest(resamples: 1000, method: .blockBootstrap).run(x: x, y: y, seed: 1))
        #expect(engine.widening > 1.05, "widening \(engine.widening)")
        #expect(plain.widening == 1)
        #expect(engine.p >= plain.p)
        #expect(engine.effectiveN < 45)
    }

    @Test("missing days are not neighbours: values a month apart count as independent days (n_eff = n)")
    func gapsAreNotJoinedUp() throws {
        // 60 strongly autocorrelated values. Joined up as consecutive days they carry far fewer than 60 independent
        // days; observed 30 days apart (every day in between missing) no two of them are within the Sokal window,
        // so Bartlett's sum over calendar lags is 1 and every value counts.
        var rng = SeededGenerator(seed: 21)
        let x = Calibration.autoregressive(rho: 0.9, n: 60, rng: &rng)
        let y = Calibration.autoregressive(rho: 0.9, n: 60, rng: &rng)
        let test = AssociationTest(resamples: 200)
        let joined = try #require(test.run(x: x, y: y, seed: 1))
        let apart = try #require(test.run(x: x, y: y, days: (0..<60).map { $0 * 30 }, seed: 1))
        #expect(joined.effectiveN < 30, "joined-up n_eff \(joined.effectiveN)")
        #expect(apart.effectiveN == 60)
        #expect(apart.p <= joined.p)
    }

    @Test("consecutive days given as dates change nothing; a gap changes the correction")
    func consecutiveDatesAreTheSeries() throws {
        var rng = SeededGenerator(seed: 22)
        let x = Calibration.autoregressive(rho: 0.7, n: 120, rng: &rng)
        let y = Calibration.autoregressive(rho: 0.7, n: 120, rng: &rng)
        let test = AssociationTest(resamples: 300)
        let plain = try #require(test.run(x: x, y: y, seed: 4))
        let dated = try #require(test.run(x: x, y: y, days: (0..<120).map { 700 + $0 }, seed: 4))
        #expect(plain == dated)
        // A three-week holiday after day 60: the values either side are no longer neighbours.
        let holiday = try #require(test.run(x: x, y: y, days: (0..<120).map { $0 < 60 ? $0 : $0 + 21 }, seed: 4))
        #expect(holiday.effectiveN != plain.effectiveN)
        #expect(holiday.r == plain.r)
    }

    @Test("the 95 % CI covers the true r in about 95 % of trials on strongly autocorrelated series")
    func intervalCoverage() {
        // 400 seeded pairs, ρ = 0.85, n = 90, true r = 0.3. An honest 95 % interval covers Binomial(400, 0.95):
        // SE 0.011, so ±3.4 SE is [0.913, 0.987]. The paired block percentile interval without the Bartlett scale
        // covered 0.89 here (insights-bench grid, 4000 trials), outside it.
        var covered = 0
        for trial in 0..<400 {
            var rng = SeededGenerator(seed: 2000, stream: trial)
            let x = Calibration.autoregressive(rho: 0.85, n: 90, rng: &rng)
            let z = Calibration.autoregressive(rho: 0.85, n: 90, rng: &rng)
            let y = zip(x, z).map { 0.3 * $0 + (1 - 0.09).squareRoot() * $1 }
            guard let a = AssociationTest(resamples: 300).run(x: x, y: y, seed: rng.next()) else { continue }
            if a.ciLow <= 0.3 && 0.3 <= a.ciHigh { covered += 1 }
        }
        let coverage = Double(covered) / 400
        #expect(coverage >= 0.913 && coverage <= 0.987, "coverage \(coverage)")
    }

    @Test("a real association of r = 0.6 over 120 autocorrelated days is found, CI around it excludes 0")
    func findsARealEffect() throws {
        var hits = 0
        for trial in 0..<20 {
            var rng = SeededGenerator(seed: 1000, stream: trial)
            let x = Calibration.autoregressive(rho: 0.5, n: 120, rng: &rng)
            let z = Calibration.autoregressive(rho: 0.5, n: 120, rng: &rng)
            let y = zip(x, z).map { 0.6 * $0 + 0.8 * $1 }
            let a = try #require(AssociationTest(resamples: 500).run(x: x, y: y, seed: UInt64(trial)))
            if a.p < 0.01 && a.ciLow > 0 { hits += 1 }
        }
        // Bartlett sd of r here ≈ 0.64·√(1.25/0.75/120) ≈ 0.075, so r̂ ≈ 0.6 sits ≈ 6 sd from 0: all 20 should.
        #expect(hits >= 19)
    }
}

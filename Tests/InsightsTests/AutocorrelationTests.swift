import Testing

@testable import Insights

@Suite("Autocorrelation and τ_int (Health Engine: Sokal-windowed integrated autocorrelation time)")
struct AutocorrelationTests {
    @Test("biased ACF divides every lag by the full sum of squares (hand-computed on 1…5)")
    func biasedEstimatorOnALine() throws {
        // Centred 1…5 is −2,−1,0,1,2 with Σ² = 10; lag sums 4, −1, −4, −4 (worked by hand).
        let rho = try #require(Autocorrelation.function([1, 2, 3, 4, 5], maxLag: 4))
        let expected = [1.0, 0.4, -0.1, -0.4, -0.4]
        for (a, b) in zip(rho, expected) { #expect(abs(a - b) < 1e-12) }
    }

    @Test("a constant series has no autocorrelation and no τ: missing, not zero")
    func constantSeriesIsMissing() {
        #expect(Autocorrelation.function([3, 3, 3, 3], maxLag: 2) == nil)
        #expect(Autocorrelation.integratedTime([1, 1, 1, 1, 1, 1]) == nil)
    }

    @Test("Sokal window stops at the first M with M ≥ 5·τ(M) (hand-worked on 1…5)")
    func sokalWindowRule() throws {
        // τ(1)=1.8, τ(2)=1.6, τ(3)=0.8 (3 < 4), τ(4)=0 (4 ≥ 0): window 4, τ 0.
        let t = try #require(Autocorrelation.integratedTime([1, 2, 3, 4, 5]))
        #expect(t.window == 4)
        #expect(abs(t.tau) < 1e-12)
    }

    @Test("τ_int of a long AR(1) approaches (1+ρ)/(1−ρ) (seeded, ±3 sampling SDs)")
    func arOneTheory() throws {
        for rho in [0.0, 0.5, 0.7] {
            var rng = SeededGenerator(seed: 7)
            let x = Calibration.autoregressive(rho: rho, n: 50_000, rng: &rng)
            let t = try #require(Autocorrelation.integratedTime(x))
            let theory = (1 + rho) / (1 - rho)
            // Sokal's variance of τ̂: 2(2M+1)/n · τ² (Sokal 1997 eq. 3.19).
            let sd = (2 * Double(2 * t.window + 1) / 50_000).squareRoot() * theory
            #expect(abs(t.tau - theory) < 3 * sd + 0.02 * theory, "ρ=\(rho): τ=\(t.tau) vs \(theory)")
        }
    }

    @Test("block length is τ·n^(1/3) rounded, clamped to [2, n/4]")
    func blockLengthRule() {
        #expect(blockLength(tau: 5.6667, n: 365) == 40)  // 5.6667 · 7.1466 = 40.50 → 40 (sits just below .5)
        #expect(blockLength(tau: 12.333, n: 90) == 22)  // 55.3 clamped to 90/4 = 22
        #expect(blockLength(tau: 0.1, n: 365) == 2)
        #expect(blockLength(tau: 1, n: 8) == 2)
    }
}

import RecoveryCore
import Testing

@testable import Insights

@Suite("T4 experiment: permuted blocks, power from the person's own history, randomisation test (DESIGN §6)")
struct ExperimentTests {
    @Test("permuted blocks: every block half and half, runs at most K long, the same seed the same schedule")
    func permutedBlocks() {
        for (n, k) in [(28, 4), (56, 4), (24, 6), (10, 2)] {
            let scheme = RandomisationScheme(mornings: n, block: k)
            #expect(scheme.problem == nil)
            for seed in UInt64(1)...50 {
                let arms = scheme.draw(seed: seed)
                #expect(arms.count == n)
                for b in 0..<(n / k) {
                    #expect(arms[(b * k)..<(b * k + k)].filter { $0 == .habit }.count == k / 2)
                }
                var run = 1
                var longest = 1
                for i in 1..<n {
                    run = arms[i] == arms[i - 1] ? run + 1 : 1
                    longest = max(longest, run)
                }
                #expect(longest <= k)
                #expect(scheme.draw(seed: seed) == arms)
            }
        }
        // Different seeds give different schedules (50 draws of 28 nights in blocks of 4, of 6^7 schedules).
        let scheme = RandomisationScheme(mornings: 28, block: 4)
        #expect(Set((UInt64(1)...50).map { scheme.draw(seed: $0).map(\.rawValue).joined() }).count >= 48)
    }

    @Test("a scheme that cannot be balanced is refused with the numbers to use instead")
    func schemeProblems() {
        #expect(RandomisationScheme(mornings: 30, block: 4).problem?.hasSuffix("take 28 or 32") == true)
        #expect(RandomisationScheme(mornings: 28, block: 3).problem?.hasPrefix("--block must be an even") == true)
        #expect(RandomisationScheme(mornings: 2, block: 2).problem?.hasPrefix("--days must be between 4") == true)
        #expect(RandomisationScheme(mornings: 8, block: 10).problem?.contains("cannot be longer") == true)
    }

    @Test("the SE formula equals the variance of the statistic over the scheme's draws for an AR(1) covariance")
    func standardErrorMatchesTheScheme() {
        // For AR(1) with SD σ and correlation ρ^d, γ(d) = σ²(1 − ρ^d). The exact variance of Σ c_t y_t over draws
        // of the scheme is E[Σ_s Σ_t c_s c_t σ² ρ^|s−t|]; 4000 draws estimate its square root to about 0.5 %.
        let sigma = 10.0
        for (rho, n, k) in [(0.0, 28, 4), (0.7, 28, 4), (0.85, 56, 4), (0.7, 28, 2), (0.5, 24, 6)] {
            let gamma = (1..<14).map { d in sigma * sigma * (1 - pow(rho, d)) }
            let power = ExperimentPower(mean: 50, sd: sigma, semivariogram: gamma, days: 100)
            let scheme = RandomisationScheme(mornings: n, block: k)
            var total = 0.0
            let draws = 4000
            let powers = (0..<n).map { pow(rho, $0) }
            for seed in 0..<draws {
                let c = scheme.draw(seed: UInt64(seed)).map { $0 == .habit ? 2.0 / Double(n) : -2.0 / Double(n) }
                var v = 0.0
                for s in 0..<n { for t in 0..<n { v += c[s] * c[t] * powers[abs(s - t)] } }
                total += v * sigma * sigma
            }
            let exact = (total / Double(draws)).squareRoot()
            let se = power.standardErrorAllMeasured(mornings: n, block: k)
            #expect(abs(se / exact - 1) < 0.02, "rho \(rho) n \(n) k \(k): formula \(se), draws \(exact)")
        }
        // K = 2 is the paired design: σ·√(4(1 − ρ)/N).
        let paired = ExperimentPower(mean: 50, sd: 10, semivariogram: [100 * 0.3], days: 100)
        #expect(abs(paired.standardErrorAllMeasured(mornings: 28, block: 2) - 10 * (4 * 0.3 / 28).squareRoot()) < 1e-9)
    }

    func pow(_ x: Double, _ d: Int) -> Double {
        var v = 1.0
        for _ in 0..<d { v *= x }
        return v
    }

    @Test("more mornings detect less; the mornings needed for the detectable change are the plan's N")
    func planArithmetic() throws {
        var rng = SeededGenerator(seed: 3)
        let x = Calibration.autoregressive(rho: 0.7, n: 120, rng: &rng).map { 55 + 8 * $0 }
        let plan = try #require(ExperimentPower.estimate(values: x, days: Array(0..<120)))
        #expect(abs(plan.rho - 0.7) < 0.15)
        let d28 = plan.detectable(mornings: 28, block: 4)
        let d56 = plan.detectable(mornings: 56, block: 4)
        #expect(d56 < d28)
        #expect(abs(plan.power(effect: d28, mornings: 28, block: 4) - 0.80) < 0.005)
        #expect(plan.morningsNeeded(effect: d28, block: 4) == 28)
        #expect(ExperimentPower.estimate(values: Array(x.prefix(20)), days: Array(0..<20)) == nil)  // floor 21
    }

    @Test("a noiseless constant effect is estimated exactly, inside its CI, with the smallest p the re-draws allow")
    func exactEffect() throws {
        let scheme = RandomisationScheme(mornings: 16, block: 4)
        let arms = scheme.draw(seed: 11)
        var rng = SeededGenerator(seed: 2)
        let base = (0..<16).map { _ in 50 + rng.gaussian() }
        let mornings = (0..<16).map { i in
            ExperimentMorning(
                arm: arms[i], outcome: base[i] + (arms[i] == .habit ? -20 : 0), didHabit: arms[i] == .habit)
        }
        let r = try #require(ExperimentAnalysis.run(mornings, scheme: scheme, seed: 1, redraws: 999))
        #expect(abs(r.byAssignment.difference - (-20)) < 1.5)
        #expect(r.byAssignment.ciLow < -20 && -20 < r.byAssignment.ciHigh)
        #expect(r.byAssignment.p! <= 0.002)
        #expect(r.tier == .t4)
        #expect(r.perProtocol?.habitMornings == 8)
        let s = r.sentence(habit: "late-caffeine", outcome: "rMSSD", unit: " ms", digits: 1)
        #expect(s.hasPrefix("In your own test, late-caffeine lowered your rMSSD by "))
        #expect(s.hasSuffix("8 vs 8 mornings)."))
    }

    @Test("missed mornings and mornings against the draw: ITT keeps the latter, per protocol drops them")
    func missingAndAdherence() throws {
        let scheme = RandomisationScheme(mornings: 28, block: 4)
        let arms = scheme.draw(seed: 5)
        var rng = SeededGenerator(seed: 9)
        let mornings = (0..<28).map { i -> ExperimentMorning in
            let against = i == 2 || i == 9
            let did = (arms[i] == .habit) != against
            return ExperimentMorning(
                arm: arms[i], outcome: i == 5 ? nil : 50 + 3 * rng.gaussian() + (did ? -10 : 0),
                didHabit: i == 7 ? nil : did)
        }
        let r = try #require(ExperimentAnalysis.run(mornings, scheme: scheme, seed: 1, redraws: 999))
        #expect(r.measured == 27)
        #expect(r.withCheckin == 27)
        #expect(r.followed == 25)  // 28 − 2 against the draw − 1 without a check-in
        #expect(r.byAssignment.habitMornings + r.byAssignment.withoutMornings == 27)
        let pp = try #require(r.perProtocol)
        #expect(pp.habitMornings + pp.withoutMornings == 24)  // also without the missed morning
        #expect(abs(pp.difference + 10) < abs(r.byAssignment.difference + 10) + 0.5)
    }

    @Test("an arm with fewer than two measured mornings has no result")
    func tooFew() {
        let scheme = RandomisationScheme(mornings: 4, block: 4)
        let arms = scheme.draw(seed: 1)
        let mornings = (0..<4).map { i in ExperimentMorning(arm: arms[i], outcome: i == 0 ? 50 : nil, didHabit: nil) }
        #expect(ExperimentAnalysis.run(mornings, scheme: scheme, seed: 1, redraws: 99) == nil)
    }
}

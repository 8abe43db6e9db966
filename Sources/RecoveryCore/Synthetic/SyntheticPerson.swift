#if canImport(Glibc)
    import Glibc  // libm only (exp).
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A seeded synthetic person: mornings with day-to-day variation, a questionnaire that follows how recovered
/// the person is, and habits with planted effects (`HabitEffect.planted`). Same seed, same person, on every
/// machine. Used by tests, the demo and the virtual strap.
///
/// Day-to-day model: a latent recovery state sₙ = φ·sₙ₋₁ + √(1 − φ²)·εₙ (AR(1), stationary variance 1,
/// φ = 0.75), higher = better recovered. The morning's rMSSD target is base·exp(0.18·sₙ + 0.05·noise)·habit
/// factors; lying HR is base − 2.5·sₙ + noise + habit deltas; each score is 4.6 + 1.1·sₙ + noise(0.7) + habit
/// deltas, rounded and clamped to 1–7.
public struct SyntheticPerson: Hashable, Sendable {
    public let seed: UInt64
    public let firstDate: LocalDate
    public let baseRMSSDMs: Double
    public let baseLyingHRBpm: Double
    public let basePeakRiseBpm: Double
    public let baseSustainedRiseBpm: Double
    public let respirationHz: Double
    public let effects: [HabitEffect]

    public static let persistence = 0.75

    public init(
        seed: UInt64, firstDate: LocalDate = LocalDate(year: 2026, month: 1, day: 1)!,
        effects: [HabitEffect] = HabitEffect.planted
    ) {
        self.seed = seed
        self.firstDate = firstDate
        self.effects = effects
        var random = SeededRandom(seed: seed, stream: 0xBA5E)
        baseRMSSDMs = random.uniform(35, 85)
        baseLyingHRBpm = random.uniform(48, 64)
        basePeakRiseBpm = random.uniform(26, 36)
        baseSustainedRiseBpm = random.uniform(10, 16)
        respirationHz = random.uniform(0.22, 0.28)
    }

    /// Day n (0 = `firstDate`).
    public func day(_ n: Int) -> SyntheticDay { days(0..<(n + 1)).last! }

    /// Days in `range` (computed from day 0, as the recovery state carries over from day to day).
    public func days(_ range: Range<Int>) -> [SyntheticDay] {
        precondition(range.lowerBound >= 0, "synthetic days start at 0")
        var result: [SyntheticDay] = []
        result.reserveCapacity(range.count)
        var state = 0.0
        let phi = SyntheticPerson.persistence
        for n in 0..<range.upperBound {
            var random = SeededRandom(seed: seed, stream: 1, UInt64(n))
            let innovation = random.normal()
            state = n == 0 ? innovation : phi * state + (1 - phi * phi).squareRoot() * innovation
            if n >= range.lowerBound { result.append(makeDay(n, state: state)) }
        }
        return result
    }

    private func makeDay(_ n: Int, state: Double) -> SyntheticDay {
        var random = SeededRandom(seed: seed, stream: 2, UInt64(n))
        var habits: [String] = []
        var rmssd = baseRMSSDMs * exp(0.18 * state + 0.05 * random.normal())
        var lyingHR = baseLyingHRBpm - 2.5 * state + 1.0 * random.normal()
        var peakRise = basePeakRiseBpm - 1.5 * state + 1.5 * random.normal()
        let sustainedRise = baseSustainedRiseBpm - 1.0 * state + 1.0 * random.normal()
        var scoreShift = [Double](repeating: 0, count: 5)
        for effect in effects where random.chance(effect.probability) {
            habits.append(effect.habit)
            rmssd *= effect.rmssdFactor
            lyingHR += effect.lyingHRDelta
            peakRise += effect.peakRiseDelta
            for i in 0..<5 { scoreShift[i] += effect.scoreDeltas[i] }
        }
        var values: [Int] = []
        for i in 0..<5 {
            let raw = 4.6 + 1.1 * state + 0.7 * random.normal() + scoreShift[i]
            values.append(min(7, max(1, Int(raw.rounded()))))
        }
        let date = firstDate.adding(days: n)
        let questionnaire = Questionnaire(date: date, scores: SubjectiveScores(values)!, habits: habits)
        return SyntheticDay(
            person: self, index: n, date: date, state: state, questionnaire: questionnaire,
            targetRMSSDMs: rmssd, lyingHRBpm: lyingHR, peakRiseBpm: max(peakRise, sustainedRise + 4),
            sustainedRiseBpm: sustainedRise, peakDelayS: random.uniform(10, 12),
            respirationHz: respirationHz + random.uniform(-0.02, 0.02))
    }

    /// A beat-by-beat heart for day n's morning (time 0 = the person lies down and the session starts).
    public func heart(day n: Int, options: SyntheticHeart.Options = .init()) -> SyntheticHeart {
        SyntheticHeart(day: day(n), options: options)
    }

    /// Day n's morning as a finished list of beats up to `durationMs`, standing at `standAtMs` (nil: lying
    /// throughout).
    public func morning(day n: Int, standAtMs: Int64?, durationMs: Int64, options: SyntheticHeart.Options = .init())
        -> SyntheticMorning
    {
        var heart = heart(day: n, options: options)
        heart.standAtMs = standAtMs
        var beats: [SyntheticBeat] = []
        while true {
            let beat = heart.nextBeat()
            if beat.endMs > Double(durationMs) { break }
            beats.append(beat)
        }
        return SyntheticMorning(day: heart.day, standAtMs: standAtMs, beats: beats, rrAvailable: options.rrAvailable)
    }
}

/// One synthetic day: the questionnaire and the physiology the morning is generated from.
public struct SyntheticDay: Hashable, Sendable {
    public let person: SyntheticPerson
    public let index: Int
    public let date: LocalDate
    /// The latent recovery state (higher = better), standard normal over days.
    public let state: Double
    public let questionnaire: Questionnaire
    /// The rMSSD the lying RR are generated to have.
    public let targetRMSSDMs: Double
    public let lyingHRBpm: Double
    /// Rise of HR over lying at the orthostatic peak (≈ gapPeak).
    public let peakRiseBpm: Double
    /// Rise of HR over lying once standing has settled (≈ gapAvg, slightly above it early in the minute).
    public let sustainedRiseBpm: Double
    /// Seconds after standing at which the transient rise peaks.
    public let peakDelayS: Double
    public let respirationHz: Double

    public var habits: [String] { questionnaire.habits }
}

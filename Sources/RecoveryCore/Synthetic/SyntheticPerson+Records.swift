extension SyntheticPerson {
    /// Day records for the first `count` days, built from each day's planted physiology (target rMSSD, lying
    /// HR, rises) rather than from simulated beats: an analysis sees exactly what was planted. For the insights
    /// engine's tests, calibration and benchmark; the demo and the store use simulated mornings instead.
    public func plantedRecords(count: Int) -> [DayRecord] {
        days(0..<count).map { day in
            let lying = day.lyingHRBpm
            let hrv = HRVMetrics(
                rmssdMs: day.targetRMSSDMs, meanRRMs: 60_000 / lying, meanHRBpm: lying, sdnnMs: nil, accepted: 60,
                rejected: 0, artifactRatio: 0)
            let measurement = MorningMeasurement(
                date: day.date, startedAtEpoch: 0, durationMs: 180_000, hrv: hrv, meanHRBpm: lying, quality: .ok,
                orthostaticStatus: .completed,
                orthostatic: OrthostaticResult(
                    avgLyingHR: lying, avgStandingHR: lying + day.sustainedRiseBpm,
                    peakStandingHR: lying + day.peakRiseBpm),
                strapAddress: nil, strapBatteryPercent: nil,
                marks: PhaseMarks(settleStartMs: 0, captureStartMs: 15_000, captureEndMs: 75_000), rawRR: [],
                heartRates: [])
            return DayRecord(date: day.date, questionnaire: day.questionnaire, measurement: measurement)
        }
    }

    /// A person with no association between features and outcomes: the questionnaires of one synthetic person
    /// (habits tagged as often as the planted person tags them, with no effect) and the measurements of another.
    /// Scores and outcomes each keep their own day-to-day autocorrelation, so only an autocorrelation-corrected
    /// test stays quiet; the only real associations left are definitional (a score against the subjective mean).
    public static func unrelatedRecords(seed: UInt64, count: Int) -> [DayRecord] {
        let asked = SyntheticPerson(seed: seed, effects: HabitEffect.withoutEffects).plantedRecords(count: count)
        let measured = SyntheticPerson(seed: seed ^ 0xFFFF_0000, effects: HabitEffect.withoutEffects)
            .plantedRecords(count: count)
        return zip(asked, measured).map {
            DayRecord(date: $0.date, questionnaire: $0.questionnaire, measurement: $1.measurement)
        }
    }
}

extension HabitEffect {
    /// The starter habits, tagged as often as `planted` tags them, changing nothing.
    public static var withoutEffects: [HabitEffect] {
        planted.map {
            HabitEffect(
                habit: $0.habit, probability: $0.probability, rmssdFactor: 1, lyingHRDelta: 0, peakRiseDelta: 0,
                scoreDeltas: [0, 0, 0, 0, 0])
        }
    }
}

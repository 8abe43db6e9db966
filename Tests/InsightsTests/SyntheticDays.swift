import RecoveryCore

@testable import Insights

/// Day records for a synthetic person's first `count` days, built from each day's planted physiology
/// (target rMSSD, lying HR, rises) rather than from simulated beats: the scan sees exactly what was planted.
func syntheticRecords(_ person: SyntheticPerson, count: Int) -> [DayRecord] {
    person.days(0..<count).map { day in
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

/// The starter habits tagged as often as the planted person tags them, with no effect on anything.
let habitsWithoutEffects: [HabitEffect] = HabitEffect.planted.map {
    HabitEffect(
        habit: $0.habit, probability: $0.probability, rmssdFactor: 1, lyingHRDelta: 0, peakRiseDelta: 0,
        scoreDeltas: [0, 0, 0, 0, 0])
}

/// A person with no association between features and outcomes: the questionnaires of one synthetic person
/// (habits tagged, no effects) and the measurements of another. Scores and outcomes each keep their own
/// day-to-day autocorrelation, so only a correctly autocorrelation-corrected test stays quiet; the only real
/// associations left are the definitional ones (a score against the subjective mean of the same questionnaires).
func unrelatedRecords(seed: UInt64, count: Int) -> [DayRecord] {
    let asked = syntheticRecords(SyntheticPerson(seed: seed, effects: habitsWithoutEffects), count: count)
    let measured = syntheticRecords(
        SyntheticPerson(seed: seed ^ 0xFFFF_0000, effects: habitsWithoutEffects), count: count)
    return zip(asked, measured).map {
        DayRecord(date: $0.date, questionnaire: $0.questionnaire, measurement: $1.measurement)
    }
}

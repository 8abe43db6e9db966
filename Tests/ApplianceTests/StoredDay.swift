@testable import RecoveryCore

/// A stored box morning with a check-in of fives, for tests that put a history under the daemon's readout.
func storedDay(
    _ date: LocalDate, rmssd: Double, meanHR: Double = 60, lying: Double = 55, standing: Double = 70,
    peak: Double = 85
) -> DayRecord {
    let hrv = HRVMetrics(
        rmssdMs: rmssd, meanRRMs: 1000, meanHRBpm: meanHR, sdnnMs: 40, accepted: 60, rejected: 0, artifactRatio: 0)
    let m = MorningMeasurement(
        date: date, startedAtEpoch: 0, durationMs: 200_000, hrv: hrv, meanHRBpm: meanHR, quality: .ok,
        orthostaticStatus: .completed,
        orthostatic: OrthostaticResult(avgLyingHR: lying, avgStandingHR: standing, peakStandingHR: peak),
        strapAddress: nil, strapBatteryPercent: nil,
        marks: PhaseMarks(settleStartMs: 0, captureStartMs: 15_000, captureEndMs: 75_000), rawRR: [],
        heartRates: [])
    return DayRecord(
        date: date, questionnaire: Questionnaire(date: date, scores: SubjectiveScores([5, 5, 5, 5, 5])!), measurement: m)
}

@testable import RecoveryCore

/// Builders for day records in tests.
enum Fixture {
    static let today = LocalDate(year: 2026, month: 3, day: 31)!

    static func questionnaire(_ date: LocalDate, scores: Int = 5) -> Questionnaire {
        Questionnaire(date: date, scores: SubjectiveScores(Array(repeating: scores, count: 5))!)
    }

    static func questionnaire(_ date: LocalDate, values: [Int]) -> Questionnaire {
        Questionnaire(date: date, scores: SubjectiveScores(values)!)
    }

    static func measurement(
        _ date: LocalDate, rmssd: Double?, quality: Quality = .ok, orthostatic: OrthostaticResult? = nil,
        status: OrthostaticStatus? = nil
    ) -> MorningMeasurement {
        let hrv = rmssd.map {
            HRVMetrics(
                rmssdMs: $0, meanRRMs: 1000, meanHRBpm: 60, sdnnMs: 40, accepted: 60, rejected: 0, artifactRatio: 0)
        }
        return MorningMeasurement(
            date: date, startedAtEpoch: 0, durationMs: 200_000, hrv: hrv, meanHRBpm: 60, quality: quality,
            orthostaticStatus: status ?? (orthostatic == nil ? .skipped : .completed), orthostatic: orthostatic,
            strapAddress: nil, strapBatteryPercent: nil,
            marks: PhaseMarks(settleStartMs: 0, captureStartMs: 15_000, captureEndMs: 75_000), rawRR: [], heartRates: []
        )
    }

    /// A complete day `offset` days from `today` (negative = before) with the given values.
    static func day(
        _ offset: Int, rmssd: Double? = 60, lying: Double? = 55, standing: Double = 70, peak: Double = 85,
        scores: Int? = 5
    ) -> DayRecord {
        let date = today.adding(days: offset)
        let ortho = lying.map { OrthostaticResult(avgLyingHR: $0, avgStandingHR: standing, peakStandingHR: peak) }
        return DayRecord(
            date: date, questionnaire: scores.map { questionnaire(date, scores: $0) },
            measurement: measurement(date, rmssd: rmssd, orthostatic: ortho))
    }
}

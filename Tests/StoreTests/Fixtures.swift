import Foundation
import RecoveryCore
import TestSupport

@testable import Store

enum Fixture {
    static let day = LocalDate(year: 2026, month: 3, day: 10)!

    static func questionnaire(
        _ date: LocalDate = day, scores: [Int] = [5, 6, 4, 5, 6], habits: [String] = ["alcohol"], notes: String? = nil
    ) -> Questionnaire {
        Questionnaire(
            date: date, scores: SubjectiveScores(scores)!, habits: habits,
            caffeineTime: MinuteOfDay(hour: 14, minute: 30), caffeineMg: 120,
            lastMealTime: MinuteOfDay(hour: 19, minute: 45), notes: notes)
    }

    /// A plausible morning whose RR intervals are `rr` raw 1/1024 s values arriving once a second.
    static func morning(
        _ date: LocalDate = day, rmssd: Double = 48.25, rr: [UInt16] = Array(repeating: 1024, count: 80),
        quality: Quality = .ok, orthostatic: OrthostaticStatus = .completed, startedAt: Int64 = 1_773_122_400
    ) -> MorningMeasurement {
        MorningMeasurement(
            date: date, startedAtEpoch: startedAt, durationMs: 183_250,
            hrv: HRVMetrics(
                rmssdMs: rmssd, meanRRMs: 1000.0, meanHRBpm: 60.0, sdnnMs: 52.125, accepted: 70, rejected: 1,
                artifactRatio: 1.0 / 71.0),
            meanHRBpm: 60.0, quality: quality, orthostaticStatus: orthostatic,
            orthostatic: orthostatic == .completed
                ? OrthostaticResult(avgLyingHR: 55.5, avgStandingHR: 75.25, peakStandingHR: 95.0) : nil,
            strapAddress: "A0:9E:1A:12:34:56", strapBatteryPercent: 80,
            marks: PhaseMarks(
                settleStartMs: 0, captureStartMs: 15_000, captureEndMs: 75_500, lyingEndMs: 105_500,
                standStartMs: 108_500, standEndMs: 168_500),
            rawRR: rr.enumerated().map { RRInterval(raw: $1, receivedAtMs: Int64($0) * 1000 + 812) },
            heartRates: (0..<170).map {
                HeartRateReading(bpm: UInt16(58 + $0 % 5), receivedAtMs: Int64($0) * 1000 + 812)
            })
    }

    /// A degraded (HR-only) morning: no RR, no rMSSD (spec §4.1).
    static func degradedMorning(_ date: LocalDate = day) -> MorningMeasurement {
        var m = morning(date, rr: [], quality: .fail(.rrUnavailable), orthostatic: .skipped)
        m.hrv = nil
        m.meanHRBpm = 61.5
        return m
    }
}

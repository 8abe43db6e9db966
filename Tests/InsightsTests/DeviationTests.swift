import RecoveryCore
import Testing

@testable import Insights

@Suite("T0 deviations (Health Engine tier T0: \"Your HRV was 12% below baseline.\"; floor 21 days)")
struct DeviationTests {
    /// `count` days ending on `today`, rMSSD alternating 48/52 (mean 50, SD ≈ 2), lying HR 55, today's values given.
    func days(count: Int, today: LocalDate, todayRMSSD: Double, todayLyingHR: Double = 55) -> [DayRecord] {
        (0..<count).map { i in
            let date = today.adding(days: i - count + 1)
            let isToday = date == today
            let rmssd = isToday ? todayRMSSD : (i % 2 == 0 ? 48.0 : 52.0)
            let lying = isToday ? todayLyingHR : 55.0
            let m = MorningMeasurement(
                date: date, startedAtEpoch: 0, durationMs: 180_000,
                hrv: HRVMetrics(
                    rmssdMs: rmssd, meanRRMs: 1000, meanHRBpm: 60, sdnnMs: nil, accepted: 60, rejected: 0,
                    artifactRatio: 0),
                meanHRBpm: 60, quality: .ok, orthostaticStatus: .completed,
                orthostatic: OrthostaticResult(
                    avgLyingHR: lying, avgStandingHR: lying + 12, peakStandingHR: lying + 25),
                strapAddress: nil, strapBatteryPercent: nil,
                marks: PhaseMarks(settleStartMs: 0, captureStartMs: 15_000, captureEndMs: 75_000), rawRR: [],
                heartRates: [])
            let q = Questionnaire(date: date, scores: SubjectiveScores([5, 5, 5, 5, 5])!)
            return DayRecord(date: date, questionnaire: q, measurement: m)
        }
    }

    let today = LocalDate(year: 2026, month: 5, day: 1)!

    @Test("a morning 20 % under the 60-day mean, outside ±1 SD, reads \"Your rMSSD was 20 % below baseline.\"")
    func belowBaseline() throws {
        let found = deviations(days: days(count: 40, today: today, todayRMSSD: 40), today: today)
        let d = try #require(found.first { $0.channel == .rmssd })
        #expect(d.sentence == "Your rMSSD was 20 % below baseline.")
        #expect(d.side == .below && d.isConcerning && d.tier == .t0)
        #expect(d.baselineDays == 39)
        #expect(found.count == 1)  // lying HR, gaps and subjective sit inside their bands
    }

    @Test("inside the ±1 SD band nothing is said; above it on lying HR the concerning side is named")
    func insideBandAndAbove() throws {
        #expect(deviations(days: days(count: 40, today: today, todayRMSSD: 51), today: today).isEmpty)
        let found = deviations(days: days(count: 40, today: today, todayRMSSD: 50, todayLyingHR: 61), today: today)
        let d = try #require(found.first { $0.channel == .lyingHR })
        #expect(d.sentence == "Your lying HR was 11 % above baseline.")
        #expect(d.isConcerning)
    }

    @Test("the subjective channel is named as a score: \"Your subjective score was 48 % below baseline.\"")
    func subjectiveNamedAsScore() throws {
        var records = days(count: 40, today: today, todayRMSSD: 50)
        // Today's five scores average 2.6 against a norm of 5.0 every day.
        records[records.count - 1].questionnaire = Questionnaire(
            date: today, scores: SubjectiveScores([2, 3, 3, 2, 3])!)
        let d = try #require(deviations(days: records, today: today).first { $0.channel == .subjective })
        #expect(d.sentence == "Your subjective score was 48 % below baseline.")
        #expect(d.isConcerning)
    }

    @Test("fewer than 21 days in the norm: no statement, and the wait says how many more days")
    func floor() {
        let short = days(count: 15, today: today, todayRMSSD: 30)
        #expect(deviations(days: short, today: today).isEmpty)
        let pending = deviationsPending(days: short, today: today)
        #expect(pending.count == 5)
        #expect(pending.allSatisfy { $0.have == 14 && $0.moreDays == 7 && $0.analysis == .deviation })
    }

    @Test("a day without a measurement has no deviation: missing, not zero")
    func missingToday() {
        var d = days(count: 40, today: today, todayRMSSD: 40)
        d[d.count - 1].measurement = nil
        #expect(deviations(days: d, today: today).filter { $0.channel != .subjective }.isEmpty)
    }
}

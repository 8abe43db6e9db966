import Testing

@testable import RecoveryCore

/// RecoveryDeck spec §6.3 (gate) and §7.2 (completeness), as table tests.
@Suite struct GateTests {
    let today = Fixture.today

    @Test("the gate opens only on a questionnaire for today (spec §6.3)")
    func gateTable() {
        let yesterday = today.adding(days: -1)
        let cases: [(String, DayRecord?, Bool)] = [
            ("no record", nil, false),
            ("today's record without questionnaire", DayRecord(date: today), false),
            ("today's questionnaire", DayRecord(date: today, questionnaire: Fixture.questionnaire(today)), true),
            (
                "yesterday's questionnaire",
                DayRecord(date: yesterday, questionnaire: Fixture.questionnaire(yesterday)), false
            ),
            (
                "today's record holding yesterday's questionnaire",
                DayRecord(date: today, questionnaire: Fixture.questionnaire(yesterday)), false
            ),
            (
                "today's measurement but no questionnaire",
                DayRecord(date: today, measurement: Fixture.measurement(today, rmssd: 60)), false
            ),
        ]
        for (name, record, open) in cases {
            #expect(Gate.canStartMeasurement(today: today, questionnaire: record) == open, "\(name)")
            #expect(Gate.canAccessHistory(today: today, questionnaire: record) == open, "\(name)")
        }
    }

    @Test("a day is complete with questionnaire, rMSSD, quality ok and orthostatic ok or skipped (spec §7.2)")
    func completenessTable() {
        let q = Fixture.questionnaire(today)
        let ortho = OrthostaticResult(avgLyingHR: 55, avgStandingHR: 70, peakStandingHR: 85)
        let m = { (rmssd: Double?, quality: Quality, status: OrthostaticStatus, o: OrthostaticResult?) in
            Fixture.measurement(self.today, rmssd: rmssd, quality: quality, orthostatic: o, status: status)
        }
        let cases: [(String, Questionnaire?, MorningMeasurement?, Bool)] = [
            ("everything", q, m(60, .ok, .completed, ortho), true),
            ("orthostatic skipped", q, m(60, .ok, .skipped, nil), true),
            ("orthostatic failed", q, m(60, .ok, .failed, nil), false),
            ("completed without numbers", q, m(60, .ok, .completed, nil), false),
            ("no questionnaire", nil, m(60, .ok, .completed, ortho), false),
            ("no measurement", q, nil, false),
            ("rMSSD missing (HR-only)", q, m(nil, .fail(.rrUnavailable), .completed, ortho), false),
            ("quality failed", q, m(60, .fail(.tooManyArtifacts), .completed, ortho), false),
        ]
        for (name, questionnaire, measurement, complete) in cases {
            let day = DayRecord(date: today, questionnaire: questionnaire, measurement: measurement)
            #expect(day.isComplete == complete, "\(name)")
        }
    }

    @Test("local days step across a DST change as calendar days, 23 or 25 hours long (pure date arithmetic)")
    func calendarDaysAcrossDST() {
        // Europe's 2026 changes are on 29 March and 25 October; the local day after each is simply the next date.
        let spring = LocalDate(year: 2026, month: 3, day: 29)!
        #expect(spring.adding(days: 1) == LocalDate(year: 2026, month: 3, day: 30))
        #expect(LocalDate(year: 2026, month: 10, day: 25)!.adding(days: 1) == LocalDate(year: 2026, month: 10, day: 26))
        // The 7-day acute window over the spring change still holds 7 dates.
        let end = LocalDate(year: 2026, month: 4, day: 1)!
        #expect((0..<7).map { end.adding(days: -$0) }.contains(spring))
        #expect(end.adding(days: -6) == LocalDate(year: 2026, month: 3, day: 26))
    }
}

import CSQLite
import Foundation
import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// Days, mornings, one-transaction writes and remeasure (DESIGN §4; spec §6.1, §7).
struct StoreDayTests {
    @Test("a saved morning reads back field for field, raw RR and BPM included")
    func morningRoundTrip() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let morning = Fixture.morning(rr: (0..<90).map { UInt16(900 + $0 * 3) })
        try store.saveMorning(morning, recordedAt: 1_773_122_600)
        #expect(try store.measurement(on: Fixture.day) == morning)
        let degraded = Fixture.degradedMorning(Fixture.day.adding(days: 1))
        try store.saveMorning(degraded, recordedAt: 1_773_209_000)
        let read = try #require(try store.measurement(on: degraded.date))
        #expect(read == degraded)
        #expect(read.hrv == nil, "HR-only mornings keep rMSSD missing, never 0 (spec §4.1)")
    }

    @Test("a questionnaire reads back with its optional fields and sorted habit tags")
    func questionnaireRoundTrip() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let q = Fixture.questionnaire(habits: ["late-night", "alcohol"], notes: "slept badly, \"noisy\"\nneighbours")
        try store.saveQuestionnaire(q, recordedAt: 1)
        #expect(try store.questionnaire(on: Fixture.day) == q)
        #expect(try store.questionnaire(on: Fixture.day)?.habits == ["alcohol", "late-night"])
        #expect(try store.hasQuestionnaire(on: Fixture.day))
        #expect(try !store.hasQuestionnaire(on: Fixture.day.adding(days: 1)))
    }

    @Test("remeasure overwrites the day's measurement: one row, the newer values (spec §6.1, no versions)")
    func remeasureOverwrites() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.saveMorning(Fixture.morning(rmssd: 40), recordedAt: 10)
        let second = Fixture.morning(rmssd: 55.5, rr: [1100, 1110, 1120], startedAt: 1_773_123_000)
        try store.saveMorning(second, recordedAt: 20)
        #expect(try store.measurement(on: Fixture.day) == second)
        #expect(try store.database.prepare("SELECT count(*) FROM measurement").rows { $0.int(0) } == [1])
    }

    @Test("a failure in the middle of saving a morning leaves the day exactly as it was (DESIGN §4)")
    func morningIsOneTransaction() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let before = Fixture.morning(rmssd: 40)
        try store.saveMorning(before, recordedAt: 10)
        let eventsBefore = try store.events()
        // The measurement row is written first, then the analytics events: fail at the first event.
        try store.database.execute(
            """
            CREATE TRIGGER fail_midway BEFORE INSERT ON analytics_event
            BEGIN SELECT RAISE(ABORT, 'simulated failure'); END
            """)
        #expect {
            try store.saveMorning(Fixture.morning(rmssd: 99, rr: [1000, 1001]), recordedAt: 20)
        } throws: { error in
            "\(error)".contains("simulated failure")
        }
        #expect(try store.measurement(on: Fixture.day) == before)
        try store.database.execute("DROP TRIGGER fail_midway")
        #expect(try store.events() == eventsBefore)
        // And on a day that had nothing, nothing at all appears.
        try store.database.execute(
            "CREATE TRIGGER fail_midway BEFORE INSERT ON analytics_event BEGIN SELECT RAISE(ABORT, 'x'); END")
        let empty = Fixture.day.adding(days: 1)
        #expect(throws: StoreError.self) { try store.saveMorning(Fixture.morning(empty), recordedAt: 30) }
        #expect(try store.day(empty) == DayRecord(date: empty))
    }

    @Test("a failure while saving habit tags leaves the earlier questionnaire and its tags in place")
    func questionnaireIsOneTransaction() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let before = Fixture.questionnaire(habits: ["illness"])
        try store.saveQuestionnaire(before, recordedAt: 1)
        try store.database.execute(
            "CREATE TRIGGER fail_midway BEFORE INSERT ON habit_tag BEGIN SELECT RAISE(ABORT, 'simulated'); END")
        #expect(throws: StoreError.self) {
            try store.saveQuestionnaire(
                Fixture.questionnaire(scores: [1, 1, 1, 1, 1], habits: ["alcohol"]), recordedAt: 2)
        }
        #expect(try store.questionnaire(on: Fixture.day) == before)
    }

    @Test("a saved morning appends its analytics: duration, completed or quality fail, orthostatic skipped (§7.3)")
    func morningAnalytics() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.saveMorning(Fixture.morning(), recordedAt: 100)
        try store.saveMorning(
            Fixture.morning(Fixture.day.adding(days: 1), quality: .fail(.tooFewBeats), orthostatic: .skipped),
            recordedAt: 200)
        let kinds = try store.events().map(\.kind.rawValue)
        #expect(
            kinds == [
                "session_duration_ms", "morning_completed", "session_duration_ms", "hrv_quality_fail",
                "orthostatic_skipped",
            ])
        #expect(try store.events(kind: .sessionDurationMs).map(\.value) == [183_250, 183_250])
        #expect(try store.events(kind: .hrvQualityFail).first?.payload == "too_few_beats")
        try store.appendEvent(AnalyticsEvent(at: 300, kind: .bleConnectFail, payload: "timeout"))
        #expect(try store.events(kind: .bleConnectFail).count == 1)
    }

    @Test("a range of days returns only stored days, oldest first, with missing parts nil (missing stays missing)")
    func dayRange() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let d0 = Fixture.day
        try store.saveQuestionnaire(Fixture.questionnaire(d0), recordedAt: 1)
        try store.saveMorning(Fixture.morning(d0), recordedAt: 1)
        try store.saveQuestionnaire(Fixture.questionnaire(d0.adding(days: 2)), recordedAt: 1)
        try store.saveMorning(Fixture.morning(d0.adding(days: 5)), recordedAt: 1)
        let days = try store.days(from: d0.adding(days: -3), through: d0.adding(days: 10))
        #expect(days.map(\.date) == [d0, d0.adding(days: 2), d0.adding(days: 5)])
        #expect(days[1].measurement == nil && days[1].questionnaire != nil)
        #expect(days[2].questionnaire == nil && days[2].measurement != nil)
        #expect(try store.days(from: d0.adding(days: 1), through: d0.adding(days: 1)).isEmpty)
        #expect(try store.firstDay() == d0)
        #expect(try store.lastDay() == d0.adding(days: 5))
        #expect(try store.allDays() == days)
    }

    @Test("imported days are marked, written in one transaction, and imply no analytics")
    func importedDays() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let records = (0..<3).map { i in
            DayRecord(date: Fixture.day.adding(days: i), measurement: Fixture.morning(Fixture.day.adding(days: i)))
        }
        try store.saveImportedDays(records, source: "elite-hrv", recordedAt: 5)
        #expect(try store.allDays().allSatisfy(\.imported))
        #expect(try store.allDays().count == 3)
        #expect(try store.events().isEmpty)
        // A record filed under the wrong day aborts the whole import.
        let bad = DayRecord(date: Fixture.day.adding(days: 10), measurement: Fixture.morning(Fixture.day))
        #expect(throws: StoreError.self) {
            try store.saveImportedDays([DayRecord(date: Fixture.day.adding(days: 9)), bad], source: "x", recordedAt: 6)
        }
        #expect(try store.allDays().count == 3)
    }

    @Test("a day the box checks in or measures stops counting as imported, so a later import keeps it")
    func boxWriteClaimsAnImportedDay() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let d0 = Fixture.day
        let d1 = Fixture.day.adding(days: 1)
        let d2 = Fixture.day.adding(days: 2)
        let imported = [d0, d1, d2].map { DayRecord(date: $0, measurement: Fixture.morning($0)) }
        try store.saveImportedDays(imported, source: "csv", recordedAt: 5)
        try store.saveQuestionnaire(Fixture.questionnaire(d0), recordedAt: 6)
        try store.saveMorning(Fixture.morning(d1), recordedAt: 7)
        let flags = try store.allDays().map { ($0.date, $0.imported) }
        #expect(flags.map(\.0) == [d0, d1, d2])
        #expect(flags.map(\.1) == [false, false, true], "only the day the box did not touch stays imported")
    }

    @Test("settings: the habit list starts as the starter list, can be replaced, and refuses bad names")
    func settings() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        #expect(try store.habitList() == ["alcohol", "late-caffeine", "hard-training", "late-night", "illness"])
        try store.setHabitList(["alcohol", "sauna"])
        #expect(try store.habitList() == ["alcohol", "sauna"])
        #expect(throws: StoreError.self) { try store.setHabitList(["Sauna Time"]) }
        #expect(throws: StoreError.self) { try store.setHabitList(["a", "a"]) }
        try store.setSetting(.displayName, "Zach")
        #expect(try store.settings().displayName == "Zach")
        try store.setSetting(.displayName, nil)
        #expect(try store.settings().displayName == nil)
    }

    @Test("deleting one day removes only that day's rows and its analytics")
    func deleteOneDay() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        for i in 0..<3 {
            let d = Fixture.day.adding(days: i)
            try store.saveQuestionnaire(Fixture.questionnaire(d), recordedAt: 1)
            try store.saveMorning(Fixture.morning(d), recordedAt: 1)
        }
        let middle = Fixture.day.adding(days: 1)
        #expect(try store.deleteDay(middle))
        #expect(try store.allDays().map(\.date) == [Fixture.day, Fixture.day.adding(days: 2)])
        #expect(try store.events().allSatisfy { $0.day != middle })
        #expect(try store.events().count == 4)
        #expect(try !store.deleteDay(middle))
    }
}

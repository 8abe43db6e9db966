import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// Rows are read by column name through a throwing decoder: a row another process damaged (a hand edit, a
/// member's sqlite3 with CHECKs off) is left out with one sentence, and every other row still reads.
struct RowDecodingTests {
    @Test("a questionnaire with a score of 9 is left out with a sentence; the other days and the status still read")
    func damagedQuestionnaire() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        var said: [String] = []
        store.onSkippedRow = { said.append($0) }
        try store.saveQuestionnaire(Fixture.questionnaire(Fixture.day), recordedAt: 1)
        try store.saveQuestionnaire(Fixture.questionnaire(Fixture.day.adding(days: 1)), recordedAt: 2)
        try store.database.run("PRAGMA ignore_check_constraints = ON")
        try store.database.run("UPDATE questionnaire SET mood = 9 WHERE day = ?1", [.text(Fixture.day.iso)])
        let days = try store.allDays()
        #expect(days.compactMap(\.questionnaire).map(\.date) == [Fixture.day.adding(days: 1)])
        #expect(said == ["the questionnaire of \(Fixture.day.iso) holds a score outside 1–7, so it was left out"])
    }

    @Test("a measurement whose started_at is text, not a number, is left out with a sentence naming the column")
    func wrongTypeInMeasurement() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.saveMorning(Fixture.morning(), recordedAt: 1)
        try store.database.run("UPDATE measurement SET started_at = 'soon'")
        let days = try store.allDays()
        #expect(days.compactMap(\.measurement).isEmpty)
        #expect(store.skippedRows == ["a row of measurement holds a value that is not an integer in started_at"])
    }

    @Test("a setting whose value is a blob, not text, is left out with a sentence, not read as some text")
    func blobSetting() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.setSetting(.displayName, "Zach")
        try store.setSetting(.reminderTime, "06:30")
        try store.database.run("UPDATE setting SET value = x'1b5b324a' WHERE key = 'display_name'")
        let settings = try store.allSettings()
        #expect(settings.map(\.key) == [.reminderTime])
        #expect(store.skippedRows == ["a row of setting holds a value that is not text in value"])
    }
}

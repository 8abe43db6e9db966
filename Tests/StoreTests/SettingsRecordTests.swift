import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// The settings are one record (`Settings`) with one codec to and from the `setting` table: what is written reads
/// back the same, and a stored value that does not read is one sentence (kept for the journal and `doctor`)
/// with the key's default in its place, said, never silently.
struct SettingsRecordTests {
    /// Every key away from its default.
    static var everyKeySet: Settings {
        var s = Settings()
        s.habits = ["sauna", "alcohol", "late-night"]
        s.displayName = "Zoë"
        s.strapAddress = "A0:9E:1A:12:34:56"
        s.strapAddressType = "public"
        s.reminder = .at(MinuteOfDay(hhmm: "06:45")!)
        s.bandEdges = LightEdges(setting: "rmssd=1.2,1.8")!
        s.artifactRule = .spec20
        s.reminderShownOn = LocalDate(iso: "2026-12-04")
        return s
    }

    @Test("every key written and read back through the table is the same record; back to defaults, the rows go")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        #expect(try store.settings() == Settings())
        try store.save(Self.everyKeySet, keys: SettingKey.known)
        #expect(try store.settings() == Self.everyKeySet)
        #expect(try store.allSettings().count == SettingKey.known.count)
        for reminder in [Settings.Reminder.off, .standard] {
            try store.updateSettings([.reminderTime]) { $0.reminder = reminder }
            #expect(try store.settings().reminder == reminder)
        }
        try store.save(Settings(), keys: SettingKey.known)
        #expect(try store.settings() == Settings())
        // The habit list is always written out (so `settings` lists it); every other default removes its row.
        #expect(try store.allSettings().map(\.key) == [.habits])
        #expect(store.skippedRows.isEmpty)
    }

    @Test("a stored value that does not read is one sentence naming the default in its place; the rest still read")
    func badStoredValues() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        var said: [String] = []
        store.onSkippedRow = { said.append($0) }
        try store.setSettings([
            (.habits, "sauna,sauna"), (.bandEdges, "2,1"), (.reminderTime, "25:00"), (.displayName, "Ada"),
            (.artifactRule, "median"), (.strapAddress, "nowhere"), (SettingKey(rawValue: "colour"), "blue"),
        ])
        let settings = try store.settings()
        var expected = Settings()
        expected.displayName = "Ada"
        #expect(settings == expected)
        #expect(
            said == [
                "the setting artifact_rule \"median\" is not one of pattern, spec-20, so the pattern rule applies",
                "the setting band_edges \"2,1\" is not a set of band edges (A,B with 0 < A < B ≤ 3, or channel=A,B joined by ;), so the spec's 1.0,1.5 applies",
                "the setting colour \"blue\" is not a setting this version knows and is not used",
                "the setting habits \"sauna,sauna\" is not a list of 1 to 20 different habit names (a–z, 0–9 and -), so the starter list applies",
                "the setting reminder_time \"25:00\" is not a time written HH:MM, or off, so 06:30 applies",
                "the setting strap_address \"nowhere\" is not a Bluetooth address AA:BB:CC:DD:EE:FF, so no paired strap applies",
            ])
        // Read again: said once, kept for doctor.
        _ = try store.settings()
        #expect(store.skippedRows == said)
        // The lights and the habit list, which read the record, take the defaults, not the bad values.
        #expect(try store.lightEdges() == .spec)
        #expect(try store.habitList() == Questionnaire.starterHabits)
    }
}

import ControlProtocol
import Foundation
import Testing

@testable import Appliance
@testable import RecoveryCore
@testable import Store

/// The daemon learns of what another process wrote to the shared database by itself (`PRAGMA data_version`
/// at each wake of its loop), so the command line's nudges are only a matter of latency; and a wake with
/// nothing changed reads nothing.
struct DaemonStoreChangeTests {
    /// The command line's own connection to the daemon's database, as `recoverydeck checkin` or `settings` opens it.
    static func commandLine(_ h: DaemonHarness) throws -> Store { try Store(path: h.configuration.database) }

    @Test("a check-in written by another connection opens the gate at the next GO, with no day-changed")
    func checkinSeenAtGO() throws {
        let h = try DaemonHarness()
        let q = Questionnaire(date: DaemonHarness.today, scores: SubjectiveScores([4, 4, 4, 4, 4])!)
        try Self.commandLine(h).saveQuestionnaire(q, recordedAt: 0)
        h.press([(0, "go")])
        #expect(h.run { h.phase == .connecting })
        #expect(h.daemon.routine.day.questionnaire == q)
    }

    @Test("settings written by another connection reach the habit keys at the next key press, with no day-changed")
    func settingsSeenAtTheNextWake() throws {
        let h = try DaemonHarness()
        #expect(h.daemon.routine.configuration.habits == Questionnaire.starterHabits)
        try Self.commandLine(h).updateSettings([.habits]) { $0.habits = ["sauna", "alcohol"] }
        // A key wakes the loop (the questionnaire's first digit); nothing else tells the daemon.
        h.press([(0, "1")])
        #expect(h.run(limit: 2000) { h.daemon.routine.configuration.habits == ["sauna", "alcohol"] })
    }

    @Test("a GO, a key and a measure request with nothing written by anyone else read nothing from the database")
    func nothingChangedNothingRead() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire()
        // The daemon's own writes (the keypad's check-in) do not move the stamp: it knows what it wrote.
        h.run(limit: 200) { false }
        let before = h.daemon.dayReads
        h.press([(0, "go")])
        #expect(h.run { h.phase == .connecting })
        #expect(try h.request(.measure(overwrite: false))["error"]?.stringValue == "busy")
        #expect(h.daemon.dayReads == before, "the day was read again \(h.daemon.dayReads - before) times")
        // One commit from elsewhere: exactly one read follows, however many wakes come after it.
        try Self.commandLine(h).updateSettings([.displayName]) { $0.displayName = "Ada" }
        h.run(limit: 200) { false }
        #expect(h.daemon.dayReads == before + 1)
    }

    @Test("a day deleted by another connection is seen at the next wake: the gate closes again")
    func deleteSeen() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire()
        #expect(h.daemon.routine.day.questionnaire != nil)
        _ = try Self.commandLine(h).deleteDay(DaemonHarness.today)
        h.press([(0, "go")])
        h.run(limit: 2000) { false }
        #expect(h.daemon.routine.day.questionnaire == nil)
        #expect(h.phase == .idle, "GO started a morning on a deleted check-in")
    }
}

import Platform
import Store
import Testing

@testable import Appliance
@testable import RecoveryCore

/// The clock guard at the bedside: a Pi without a real-time clock boots with yesterday's date and an
/// unsynchronised kernel clock; the day it believes is today is already stored by an earlier boot. GO,
/// `measure` and the keypad's `#` then show the clock's own red code and file nothing.
struct DaemonClockGuardTests {
    /// A daemon whose kernel says "not synchronised", this boot begun at 2000 s, with today's check-in
    /// recorded by an earlier boot (at 1000 s).
    static func behindClock() throws -> DaemonHarness {
        let h = try DaemonHarness(simulate: { $0.unsynchronisedBoot = 2000 })
        let stored = Questionnaire(date: DaemonHarness.today, scores: SubjectiveScores([2, 3, 2, 3, 2])!)
        try h.store.saveQuestionnaire(stored, recordedAt: 1000)
        return h
    }

    @Test("GO under an unset clock blinks code 10, connects nothing, files nothing")
    func goRefused() throws {
        let h = try Self.behindClock()
        let before = try h.store.questionnaire(on: DaemonHarness.today)
        h.press([(0, "go")])
        #expect(h.run { h.sentences.contains(ClockGuard.sentence) })
        #expect(h.daemon.panel.display == Indication.fault(.clockUnsynchronised).display)
        #expect(h.daemon.panel.display.red == .code(10))
        #expect(h.sounds.last == .fault)
        h.run(limit: 50) { false }
        #expect(h.phase == .showingFault)
        #expect(try h.store.measurement(on: DaemonHarness.today) == nil)
        #expect(try h.store.questionnaire(on: DaemonHarness.today) == before)
        #expect(try h.store.events().contains { $0.kind.rawValue == "clock_refused" })
        // A second GO while the code blinks is refused the same way (GO there would start a session).
        h.press([(0, "go")])
        h.run(limit: 50) { false }
        #expect(h.phase == .showingFault)
        #expect(try h.store.measurement(on: DaemonHarness.today) == nil)
        // `recoverydeck measure` gets the same refusal.
        #expect(try h.request(.measure(overwrite: false))["error"]?.stringValue == "clock_unsynchronised")
        #expect(try h.store.measurement(on: DaemonHarness.today) == nil)
    }

    @Test("# under an unset clock blinks code 10 and keeps the stored check-in as it was")
    func keypadRefused() throws {
        let h = try Self.behindClock()
        let before = try h.store.questionnaire(on: DaemonHarness.today)
        h.press([(0, "1"), (500, "6"), (1000, "6"), (1500, "6"), (2000, "6"), (2500, "6"), (3000, "#")])
        #expect(h.run { h.sentences.contains(ClockGuard.sentence) })
        #expect(h.daemon.panel.display == Indication.fault(.clockUnsynchronised).display)
        #expect(h.daemon.panel.display != Indication.fault(.tooManyArtifacts).display)
        #expect(try h.store.questionnaire(on: DaemonHarness.today) == before)
        #expect(h.daemon.routine.entry == nil)
    }
}

import Foundation
import Panel
import Store
import Testing

@testable import Appliance
import Simulation
@testable import RecoveryCore

/// Key 9 in the evening through the whole box: the daemon reads tonight's arm from the store's experiments,
/// also when the experiment was started over SSH after the day was read.
@Suite(.serialized)
struct DaemonTonightTests {
    static func experiment(_ arms: [String], stoppedDay: LocalDate? = nil) -> StoredExperiment {
        StoredExperiment(
            habit: "alcohol", outcome: "rmssd", firstDay: DaemonHarness.today.adding(days: 1), mornings: arms.count,
            block: 2, seed: 7, startedAt: 0, stoppedDay: stoppedDay, arms: arms)
    }

    @Test("20:00, key 9: a low beep with no experiment; green for 3 s once one is started with tonight a habit night")
    func keyNineAtTheBedside() throws {
        let h = try DaemonHarness(start: "20:00")
        h.press([(0, "9")])
        #expect(h.run { h.sounds.contains(.wrongKey) })
        #expect(h.daemon.panel.display == Indication.dark.display)
        #expect(h.daemon.routine.entry == nil, "key 9 in the evening does not wake the questionnaire")
        // Until the key is released (an idle box jumps its simulated clock to the next deadline, tomorrow).
        let pressed = h.daemon.clock.monotonicMs()
        h.run { h.daemon.clock.monotonicMs() >= pressed + Int64(PanelScript.keyHoldMs) }
        #expect(h.daemon.clock.localTime().date == DaemonHarness.today)

        // Started over SSH while the daemon runs (the command line's own connection): the next key 9 reads it.
        try Store(path: h.configuration.database).addExperiment(Self.experiment(["habit", "without", "without", "habit"]))
        h.press([(0, "9")])
        #expect(h.run { h.daemon.routine.indication == .tonight(.habit) })
        #expect(h.daemon.panel.display == Indication.tonight(.habit).display)
        #expect(h.daemon.panel.display.green != .off && h.daemon.panel.display.yellow == .off)
        // The lamp goes out by itself (the 3 s deadline, on the simulated clock).
        #expect(h.run { h.daemon.routine.indication == .dark })
        #expect(h.daemon.routine.entry == nil)
    }

    @Test("Tonight a night without the habit shows yellow; a stopped experiment gives the low beep")
    func withoutAndStopped() throws {
        let h = try DaemonHarness(start: "21:00")
        // `recoverydeck experiment`, through the command line's own connection.
        let cli = try Store(path: h.configuration.database)
        try cli.addExperiment(Self.experiment(["without", "habit", "habit", "without"]))
        h.press([(0, "9")])
        #expect(h.run { h.daemon.routine.indication == .tonight(.without) })
        #expect(h.daemon.panel.display.yellow != .off && h.daemon.panel.display.green == .off)
        #expect(h.run { h.daemon.routine.indication == .dark })

        let id = try #require(try cli.experiments().first?.id)
        try cli.stopExperiment(id: id, firstMorningLeftOut: DaemonHarness.today.adding(days: 1), at: 0)
        let beeps = h.sounds.filter { $0 == .wrongKey }.count
        h.press([(0, "9")])
        #expect(h.run { h.sounds.filter { $0 == .wrongKey }.count == beeps + 1 })
        #expect(h.daemon.routine.indication == .dark)
    }
}

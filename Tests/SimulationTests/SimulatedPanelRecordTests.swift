import Panel
import RecoveryCore
import Simulation
import Testing

@Suite("The simulated panel's records stay bounded (a daemon runs it for months)")
struct SimulatedPanelRecordTests {
    @Test("A log keeps the latest entries oldest first through every wrap-around, and counts what it dropped")
    func recentLogWraps() {
        var log = RecentLog<Int>(capacity: 4)
        for n in 0..<4 { log.append(n) }
        #expect(log.entries == [0, 1, 2, 3] && log.droppedCount == 0)
        for n in 4..<11 {
            log.append(n)
            #expect(log.entries == Array((n - 3)...n), "after \(n)")
        }
        #expect(log.droppedCount == 7 && log.totalCount == 11)
        log.removeAll()
        #expect(log.entries.isEmpty && log.droppedCount == 0)
    }

    @Test("A thousand key presses leave the latest presses and lamp changes, never more than the capacity")
    func simulatedPanelRecordsAreBounded() throws {
        let sim = try SimulatedPanel(recordCapacity: 16)
        let presses = (0..<1000).flatMap { i -> [PanelScript.Entry] in
            let key = KeypadKey.allCases[i % 12]
            let at = Int64(i) * 300
            return [.init(atMs: at, action: .keyDown(key)), .init(atMs: at + 100, action: .keyUp(key))]
        }
        sim.schedule(PanelScript(entries: presses), startMs: 0)
        var now: Int64 = 0
        while let next = sim.nextDeadlineMs, next <= 300_000 {
            now = next
            for event in sim.onDeadline(nowMs: now) + sim.drainReadable(nowMs: now).map(\.event) {
                if case .keyPressed = event { try sim.panel.play(BuzzerPattern.short, nowMs: now) }
            }
        }
        #expect(sim.actions.count == 16 && sim.timeline.count == 16)
        #expect(sim.actions.last?.action == .keyUp(KeypadKey.allCases[999 % 12]))
        #expect(sim.actions.map(\.atMs) == sim.actions.map(\.atMs).sorted())
        #expect(sim.timeline.last?.output == .buzzer && sim.timeline.last?.on == false)
        #expect(sim.droppedRecords.actions == 2000 - 16 && sim.droppedRecords.changes == 2000 - 16)
    }
}

import Panel
import Simulation
import Testing

private func panelWith(_ script: [(Int64, PanelAction)]) throws -> SimulatedPanel {
    let sim = try SimulatedPanel()
    sim.schedule(PanelScript(entries: script.map { PanelScript.Entry(atMs: $0.0, action: $0.1) }), startMs: 0)
    return sim
}

@Suite("GO button: debounce 30 ms, long press 2 s (DESIGN §2)")
struct GoButtonTests {
    @Test("A clean press and release give go-down 30 ms after the edge and go-up 30 ms after release")
    func cleanPress() throws {
        let sim = try panelWith([(1000, .goDown), (1200, .goUp)])
        let events = sim.run(fromMs: 0, untilMs: 10_000)
        #expect(
            events == [
                TimedPanelEvent(atMs: 1030, event: .goPressed),
                TimedPanelEvent(atMs: 1230, event: .goReleased(wasLongPress: false)),
            ])
    }

    @Test("Contact bounces within 30 ms of each other give exactly one press and one release")
    func bouncesGiveOnePress() throws {
        let sim = try panelWith([
            (1000, .goDown), (1004, .goUp), (1009, .goDown), (1013, .goUp), (1020, .goDown),
            (1600, .goUp), (1603, .goDown), (1611, .goUp),
        ])
        let events = sim.run(fromMs: 0, untilMs: 10_000)
        // Quiet 30 ms after the last bounce: 1020 + 30 and 1611 + 30.
        #expect(
            events == [
                TimedPanelEvent(atMs: 1050, event: .goPressed),
                TimedPanelEvent(atMs: 1641, event: .goReleased(wasLongPress: false)),
            ])
    }

    @Test("A glitch shorter than the debounce that ends released is no press at all")
    func glitchIsIgnored() throws {
        let sim = try panelWith([(1000, .goDown), (1010, .goUp)])
        #expect(sim.run(fromMs: 0, untilMs: 10_000).isEmpty)
        #expect(!sim.panel.isGoDown)
    }

    @Test("Held GO is a long press exactly 2000 ms after its first edge, once; release then says it was long")
    func longPressAtTwoSeconds() throws {
        let sim = try panelWith([(1000, .goDown), (4000, .goUp)])
        #expect(sim.run(fromMs: 0, untilMs: 2999) == [TimedPanelEvent(atMs: 1030, event: .goPressed)])
        #expect(sim.nextDeadlineMs == 3000)
        #expect(sim.run(fromMs: 2999, untilMs: 3000) == [TimedPanelEvent(atMs: 3000, event: .goLongPress)])
        #expect(
            sim.run(fromMs: 3000, untilMs: 10_000) == [
                TimedPanelEvent(atMs: 4030, event: .goReleased(wasLongPress: true))
            ])
    }

    @Test("Released 10 ms before 2 s: no long press, even though the release settles after the 2 s mark")
    func releaseJustBeforeLongPress() throws {
        let sim = try panelWith([(1000, .goDown), (2990, .goUp)])
        #expect(
            sim.run(fromMs: 0, untilMs: 10_000) == [
                TimedPanelEvent(atMs: 1030, event: .goPressed),
                TimedPanelEvent(atMs: 3020, event: .goReleased(wasLongPress: false)),
            ])
    }

    @Test("GO already held when the panel starts is not a press until released and pressed again")
    func heldAtStartIsNotAPress() throws {
        let chip = SimulatedChip()
        chip.setGrounded(PinMap.standard.goButton, true)
        let panel = try Panel(chip: chip)
        #expect(panel.isGoDown)
        #expect(panel.nextDeadlineMs == nil)
    }

    /// The person's hand on GO while the loop is busy elsewhere (a slow write, a strap burst): both edges
    /// wait in the kernel and are read together, when the line is high again.
    private func pressWhileBusy(_ edges: [(Int64, PanelAction)], readAtMs: Int64) throws -> [PanelEvent] {
        let sim = try SimulatedPanel()
        for (at, action) in edges { sim.perform(action, nowMs: at) }
        return sim.run(fromMs: readAtMs, untilMs: readAtMs + 10_000).map(\.event)
    }

    @Test("A 150 ms press the loop was too busy to see until after release is still one press and one release")
    func pressSeenOnlyAfterRelease() throws {
        #expect(try pressWhileBusy([(1000, .goDown), (1150, .goUp)], readAtMs: 1400) == [.goPressed, .goReleased(wasLongPress: false)])
    }

    @Test("Bounces around a press read late give one press; a late-read glitch shorter than 30 ms gives none")
    func bouncesReadLate() throws {
        let bounced: [(Int64, PanelAction)] = [
            (1000, .goDown), (1004, .goUp), (1009, .goDown), (1013, .goUp), (1020, .goDown), (1150, .goUp),
            (1153, .goDown), (1158, .goUp),
        ]
        #expect(try pressWhileBusy(bounced, readAtMs: 1500) == [.goPressed, .goReleased(wasLongPress: false)])
        #expect(try pressWhileBusy([(1000, .goDown), (1020, .goUp)], readAtMs: 1500).isEmpty)
    }

    @Test("A 3 s hold read only after its release is a press, a long press and a release that says it was long")
    func longHoldReadLate() throws {
        #expect(
            try pressWhileBusy([(1000, .goDown), (4000, .goUp)], readAtMs: 4200) == [
                .goPressed, .goLongPress, .goReleased(wasLongPress: true),
            ])
    }
}

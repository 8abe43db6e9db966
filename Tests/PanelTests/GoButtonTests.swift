import Panel
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
}

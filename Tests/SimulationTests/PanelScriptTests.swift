import Panel
import RecoveryCore
import Simulation
import Testing

@Suite("Panel script and simulated panel timeline")
struct PanelScriptTests {
    @Test("A script of key taps and GO presses turns into timed actions, composites expanded")
    func parsesScript() throws {
        let script = try PanelScript(
            parsing: """
                # a morning
                t=1000 key 5
                t=2.5s key-down *   # back
                t=2600 key-up *
                t=5000 go
                t=8000 go-long
                """)
        #expect(
            script.entries == [
                .init(atMs: 1000, action: .keyDown(.digit(5))), .init(atMs: 1100, action: .keyUp(.digit(5))),
                .init(atMs: 2500, action: .keyDown(.star)), .init(atMs: 2600, action: .keyUp(.star)),
                .init(atMs: 5000, action: .goDown), .init(atMs: 5150, action: .goUp),
                .init(atMs: 8000, action: .goDown), .init(atMs: 10_500, action: .goUp),
            ])
    }

    @Test("The # key is the word after key (or `hash`); a # anywhere else starts a comment (DESIGN §2: # submits)")
    func hashKeyAndComments() throws {
        let script = try PanelScript(
            parsing: """
                # the end of a check-in
                t=1000 key #
                t=2000 key #   # submit, keyed
                t=3000 key-down hash # the same key by name
                t=3100 key-up #
                t=4000 key star
                t=5000 go #GO
                   # an indented comment
                """)
        #expect(
            script.entries == [
                .init(atMs: 1000, action: .keyDown(.hash)), .init(atMs: 1100, action: .keyUp(.hash)),
                .init(atMs: 2000, action: .keyDown(.hash)), .init(atMs: 2100, action: .keyUp(.hash)),
                .init(atMs: 3000, action: .keyDown(.hash)), .init(atMs: 3100, action: .keyUp(.hash)),
                .init(atMs: 4000, action: .keyDown(.star)), .init(atMs: 4100, action: .keyUp(.star)),
                .init(atMs: 5000, action: .goDown), .init(atMs: 5150, action: .goUp),
            ])
        // Pressed on the simulated panel, the # contact is the bottom-right key (row 4, column 3).
        let sim = try SimulatedPanel()
        sim.schedule(script, startMs: 0)
        let pressed = sim.run(fromMs: 0, untilMs: 1200).map(\.event)
        #expect(pressed == [.keyPressed(.hash), .keyReleased(.hash)])
    }

    @Test(
        "A bad script line is named by number with what is wrong, one sentence each",
        arguments: [
            (
                "t=1000 key 5\nt=abc go",
                "Panel script line 2: expected a time such as t=1000 or t=2.5s, found \"t=abc\"."
            ),
            ("t=1000 key x", "Panel script line 1: \"key\" needs a key: 0-9, * or #, found \"x\"."),
            (
                "t=1000 press 5",
                "Panel script line 1: unknown action \"press\" (known: key, key-down, key-up, go, go-long, go-down, go-up)."
            ),
            ("t=1000", "Panel script line 1: no action after the time."),
            ("t=1000 go now", "Panel script line 1: \"go\" takes no argument, found \"now\"."),
            ("1000 go", "Panel script line 1: expected a time such as t=1000 or t=2.5s, found \"1000\"."),
            ("t=1000 key # submit", "Panel script line 1: unexpected \"submit\" after the action."),
            ("t=1000 key", "Panel script line 1: \"key\" needs a key: 0-9, * or #, found \"\"."),
            ("t=1000 # go", "Panel script line 1: no action after the time."),
            ("t=1000 go-up 5 # up", "Panel script line 1: \"go-up\" takes no argument, found \"5\"."),
        ])
    func badLines(text: String, message: String) {
        #expect(throws: PanelScript.BadLine.self) { try PanelScript(parsing: text) }
        do {
            _ = try PanelScript(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("The simulated panel runs a scripted questionnaire entry and records each light and beep with its time")
    func scriptedTimeline() throws {
        let sim = try SimulatedPanel()
        sim.schedule(try PanelScript(parsing: "t=1000 key 5\nt=3000 go"), startMs: 0)
        var events: [TimedPanelEvent] = []
        // The session's reactions, by hand: a short beep per key, a blue blink on GO.
        var now: Int64 = 0
        while let next = sim.nextDeadlineMs, next <= 6000 {
            now = next
            for e in sim.onDeadline(nowMs: now).map({ TimedPanelEvent(atMs: now, event: $0) })
                + sim.drainReadable(nowMs: now)
            {
                events.append(e)
                if case .keyPressed = e.event { try sim.panel.play(BuzzerPattern.short, nowMs: e.atMs) }
                if e.event == .goReleased(wasLongPress: false) {
                    try sim.panel.show(LightPattern.count(1), on: .blue, nowMs: e.atMs)
                }
            }
        }
        #expect(
            events.map(\.description) == ["t=1030 key-down 5", "t=1130 key-up 5", "t=3030 go-down", "t=3180 go-up"])
        #expect(
            sim.timeline.map(\.description) == [
                "t=1030 buzzer on", "t=1100 buzzer off", "t=3180 blue on", "t=3480 blue off",
            ])
        #expect(sim.actions.map(\.action) == [.keyDown(.digit(5)), .keyUp(.digit(5)), .goDown, .goUp])
    }
}

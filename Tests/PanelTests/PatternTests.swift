import Panel
import RecoveryCore
import Simulation
import Testing

/// Runs the panel on a hand-moved clock: jump to each deadline up to `untilMs` and let it act.
private func advance(_ panel: Panel, untilMs: Int64) {
    while let next = panel.nextDeadlineMs, next <= untilMs { _ = panel.onDeadline(nowMs: next) }
}

private func recordingPanel() throws -> (Panel, () -> [PanelChange]) {
    let panel = try Panel(chip: SimulatedChip())
    final class Box { var changes: [PanelChange] = [] }
    let box = Box()
    panel.onOutputChange = { output, on, at in box.changes.append(PanelChange(atMs: at, output: output, on: on)) }
    return (panel, { box.changes })
}

private func times(_ changes: [PanelChange], _ output: PanelOutput) -> [String] {
    changes.filter { $0.output == output }.map { "\($0.atMs) \($0.on ? "on" : "off")" }
}

/// The box's own lamp and buzzer vocabulary (`LightPattern`, `Sound`: deploy/LIGHTS.md) as the panel's lines
/// play it, on a hand-moved clock.
@Suite("Light and buzzer patterns on the panel's lines (DESIGN §1–2; deploy/LIGHTS.md)")
struct PatternTests {
    @Test("Slow blink (the reminder) is 1 s on, 1 s off on the blue line, for as long as it runs")
    func slowBlink() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(Indication.reminder.display.blue, on: .blue, nowMs: 10_000)
        advance(panel, untilMs: 14_000)
        #expect(times(changes(), .blue) == ["10000 on", "11000 off", "12000 on", "13000 off", "14000 on"])
        #expect(panel.nextDeadlineMs == 15_000)
    }

    @Test("Fast blink (connecting) is 125 ms on, 125 ms off")
    func fastBlink() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(Indication.connecting.display.blue, on: .blue, nowMs: 0)
        advance(panel, untilMs: 500)
        #expect(times(changes(), .blue) == ["0 on", "125 off", "250 on", "375 off", "500 on"])
    }

    @Test("Fault code 3: three 300 ms blinks, 1.5 s more dark after the last, then again (read off by its count)")
    func blinkCode() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(Indication.fault(.noStrapPaired).display.red, on: .red, nowMs: 0)
        advance(panel, untilMs: 4_000)
        #expect(
            times(changes(), .red) == [
                "0 on", "300 off", "600 on", "900 off", "1200 on", "1500 off", "3300 on", "3600 off", "3900 on",
            ])
    }

    @Test("N blinks before questionnaire item N, then dark with no further deadline (DESIGN §1 step 2)")
    func blinksThenDark() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(Indication.entryItem(2).display.blue, on: .blue, nowMs: 100)
        advance(panel, untilMs: 60_000)
        #expect(times(changes(), .blue) == ["100 on", "400 off", "700 on", "1000 off"])
        #expect(panel.nextDeadlineMs == nil)
    }

    @Test("The stand cue as the session plays it: beeps at 0, 1 and 2 s, the long tone at 3 s, then silence")
    func standCue() throws {
        let (panel, changes) = try recordingPanel()
        for (at, sound) in [(0, Sound.standCount), (1000, .standCount), (2000, .standCount), (3000, .standNow)] {
            advance(panel, untilMs: Int64(at))
            try panel.play(sound.pattern, nowMs: Int64(at))
        }
        advance(panel, untilMs: 60_000)
        #expect(
            times(changes(), .buzzer) == [
                "0 on", "70 off", "1000 on", "1070 off", "2000 on", "2070 off", "3000 on", "4200 off",
            ])
        #expect(panel.nextDeadlineMs == nil)
    }

    @Test("Short beep, low beep, two short beeps and the rising triple are distinct rhythms on the buzzer line")
    func beeps() throws {
        let (panel, changes) = try recordingPanel()
        for (at, sound) in [(0, Sound.digitAccepted), (1000, .wrongKey), (3000, .habitOff), (4000, .complete)] {
            advance(panel, untilMs: Int64(at))
            try panel.play(sound.pattern, nowMs: Int64(at))
        }
        advance(panel, untilMs: 9999)
        #expect(
            times(changes(), .buzzer) == [
                "0 on", "70 off",
                "1000 on", "1500 off",
                "3000 on", "3070 off", "3190 on", "3260 off",
                "4000 on", "4060 off", "4180 on", "4300 off", "4420 on", "4660 off",
            ])
    }

    @Test("A readout channel's light: blue counts its number while its own light waits, then holds 3 s and goes dark")
    func channelLight() throws {
        let (panel, changes) = try recordingPanel()
        let display = Indication.channel(2, .green).display
        try panel.show(display.blue, on: .blue, nowMs: 0)
        try panel.show(display.green, on: .green, nowMs: 0)
        advance(panel, untilMs: 100_000)
        #expect(times(changes(), .blue) == ["0 on", "300 off", "600 on", "900 off"])
        #expect(times(changes(), .green) == ["1200 on", "4200 off"])
        #expect(panel.nextDeadlineMs == nil)
    }

    @Test("A new pattern replaces the running one at once; a late deadline sets the level due at that time")
    func replacementAndLateness() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(LightPattern.slowBlink, on: .yellow, nowMs: 0)
        advance(panel, untilMs: 0)
        _ = panel.onDeadline(nowMs: 1220)  // late: the 1000 ms change is handled at 1220
        try panel.show(.off, on: .yellow, nowMs: 1300)
        advance(panel, untilMs: 5_000)
        #expect(times(changes(), .yellow) == ["0 on", "1220 off"])
        #expect(!panel.isOn(.yellow))
        #expect(panel.nextDeadlineMs == nil)
    }

    @Test("Solid and off hold their level with no deadline; a pattern's state names its next change")
    func stateAndNextChange() {
        #expect(OutputPattern.solid.isOn(atMs: 123) == true && OutputPattern.solid.nextChangeMs(after: 123) == nil)
        #expect(OutputPattern.off.isOn(atMs: 123) == false && OutputPattern.off.nextChangeMs(after: 123) == nil)
        let code = LightPattern.code(2)
        #expect(code.isOn(atMs: 0) == true && code.nextChangeMs(after: 0) == 300)
        #expect(code.isOn(atMs: 1300) == false && code.nextChangeMs(after: 1300) == 2700)
        #expect(code.isOn(atMs: 2700) == true && code.nextChangeMs(after: 2700) == 3000)
        let held = LightPattern.count(1, then: true)
        #expect(held.isOn(atMs: 350) == false && held.nextChangeMs(after: 350) == 600)
        #expect(held.isOn(atMs: 600) == true && held.nextChangeMs(after: 600) == nil)
    }
}

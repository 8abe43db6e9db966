import Panel
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

@Suite("Light and buzzer patterns on a hand-moved clock (DESIGN §1 lights and beeps)")
struct PatternTests {
    @Test("Slow blink (the reminder) is 500 ms on, 500 ms off, for as long as it runs")
    func slowBlink() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(.slowBlink, on: .blue, nowMs: 10_000)
        advance(panel, untilMs: 12_000)
        #expect(times(changes(), .blue) == ["10000 on", "10500 off", "11000 on", "11500 off", "12000 on"])
        #expect(panel.nextDeadlineMs == 12_500)
    }

    @Test("Fast blink is 125 ms on, 125 ms off")
    func fastBlink() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(.fastBlink, on: .blue, nowMs: 0)
        advance(panel, untilMs: 500)
        #expect(times(changes(), .blue) == ["0 on", "125 off", "250 on", "375 off", "500 on"])
    }

    @Test(
        "Blink code 3: three 250 ms blinks, 1.5 s dark after the last, then again (an error is read off by its count)")
    func blinkCode() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(.blinkCode(3), on: .red, nowMs: 0)
        advance(panel, untilMs: 3_600)
        #expect(
            times(changes(), .red) == [
                "0 on", "250 off", "500 on", "750 off", "1000 on", "1250 off", "2750 on", "3000 off", "3250 on",
                "3500 off",
            ])
    }

    @Test("N blinks before questionnaire item N, then dark with no further deadline")
    func blinksThenDark() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(.blinks(2), on: .blue, nowMs: 100)
        advance(panel, untilMs: 60_000)
        #expect(times(changes(), .blue) == ["100 on", "350 off", "600 on", "850 off"])
        #expect(panel.nextDeadlineMs == nil)
    }

    @Test("Countdown: beeps at 0, 1 and 2 s, a long tone from 3 s to 4 s, then silence")
    func countdown() throws {
        let (panel, changes) = try recordingPanel()
        try panel.play(.countdown, nowMs: 0)
        advance(panel, untilMs: 60_000)
        #expect(
            times(changes(), .buzzer) == [
                "0 on", "150 off", "1000 on", "1150 off", "2000 on", "2150 off", "3000 on", "4000 off",
            ])
        #expect(panel.nextDeadlineMs == nil)
    }

    @Test("Short beep, long beep, low beep and rising triple are distinct rhythms")
    func beeps() throws {
        let (panel, changes) = try recordingPanel()
        try panel.play(.shortBeep, nowMs: 0)
        advance(panel, untilMs: 999)
        try panel.play(.longBeep, nowMs: 1000)
        advance(panel, untilMs: 2999)
        try panel.play(.lowBeep, nowMs: 3000)
        advance(panel, untilMs: 3999)
        try panel.play(.risingTriple, nowMs: 4000)
        advance(panel, untilMs: 9999)
        #expect(
            times(changes(), .buzzer) == [
                "0 on", "60 off",
                "1000 on", "2000 off",
                "3000 on", "3040 off", "3070 on", "3110 off", "3140 on", "3180 off", "3210 on", "3250 off",
                "4000 on", "4060 off", "4200 on", "4320 off", "4420 on", "4660 off",
            ])
    }

    @Test("The readout's light stays solid 30 s and then goes dark by itself")
    func solidForThirtySeconds() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(OutputPattern.solid.limited(toMs: 30_000), on: .green, nowMs: 5_000)
        advance(panel, untilMs: 100_000)
        #expect(times(changes(), .green) == ["5000 on", "35000 off"])
    }

    @Test("A new pattern replaces the running one at once; a late deadline sets the level due at that time")
    func replacementAndLateness() throws {
        let (panel, changes) = try recordingPanel()
        try panel.show(.slowBlink, on: .yellow, nowMs: 0)
        _ = panel.onDeadline(nowMs: 720)  // late: the 500 ms change is handled at 720
        try panel.show(.off, on: .yellow, nowMs: 800)
        advance(panel, untilMs: 5_000)
        #expect(times(changes(), .yellow) == ["0 on", "720 off"])
        #expect(!panel.isOn(.yellow))
        #expect(panel.nextDeadlineMs == nil)
    }

    @Test("limited and followed compose: 2 blinks then solid for 1 s")
    func composition() {
        let pattern = OutputPattern.blinks(2).followed(by: OutputPattern.solid.limited(toMs: 1000))
        #expect(pattern.state(atElapsedMs: 0).on == true)
        #expect(pattern.state(atElapsedMs: 0).nextChangeMs == 250)
        #expect(pattern.state(atElapsedMs: 900).on == false)
        #expect(pattern.state(atElapsedMs: 900).nextChangeMs == 1000)
        #expect(pattern.state(atElapsedMs: 1000).on == true)
        #expect(pattern.state(atElapsedMs: 1000).nextChangeMs == 2000)
        #expect(pattern.state(atElapsedMs: 2000).on == false)
        #expect(pattern.state(atElapsedMs: 2000).nextChangeMs == nil)
        #expect(OutputPattern.solid.state(atElapsedMs: 123).on)
        #expect(OutputPattern.solid.state(atElapsedMs: 123).nextChangeMs == nil)
        #expect(OutputPattern.slowBlink.limited(toMs: 1200).steps.map(\.ms) == [500, 500, 200])
    }
}

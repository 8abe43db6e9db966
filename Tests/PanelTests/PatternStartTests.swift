import Panel
import Platform
import RecoveryCore
import Testing

/// A hand-moved monotonic clock, read when a line is written (as ftrace's `gpio_value` timestamps a
/// kernel line's edge).
private final class HandClock {
    var ms: Int64 = 0
}

/// A chip whose output writes are stamped with the hand clock's reading at the moment of the write: the
/// kernel's view of the panel, not the panel's own idea of the time.
private final class StampingChip: GPIOChip {
    let inner = SimulatedChip()
    let clock: HandClock
    var writes: [(offset: UInt32, high: Bool, atMs: Int64)] = []

    init(clock: HandClock) { self.clock = clock }

    var label: String { inner.label }

    func requestInput(offset: UInt32, bias: LineBias, edge: EdgeDetection, consumer: String) throws(PanelError)
        -> any GPIOInput
    {
        try inner.requestInput(offset: offset, bias: bias, edge: edge, consumer: consumer)
    }

    func requestOutput(offset: UInt32, initiallyHigh: Bool, consumer: String) throws(PanelError) -> any GPIOOutput {
        Stamped(line: try inner.requestOutput(offset: offset, initiallyHigh: initiallyHigh, consumer: consumer), chip: self)
    }

    final class Stamped: GPIOOutput {
        let line: any GPIOOutput
        unowned let chip: StampingChip
        init(line: any GPIOOutput, chip: StampingChip) {
            self.line = line
            self.chip = chip
        }
        var offset: UInt32 { line.offset }
        func set(high: Bool) throws(PanelError) {
            try line.set(high: high)
            chip.writes.append((offset, high, chip.clock.ms))
        }
        func release() { line.release() }
    }

    /// The lengths of the on and off stretches of `offset`, in ms, from its first rising edge.
    func stretches(_ offset: UInt32) -> [Int64] {
        let edges = writes.filter { $0.offset == offset }.drop { !$0.high }
        return zip(edges, edges.dropFirst()).map { $1.atMs - $0.atMs }
    }
}

/// Sounds and lamp patterns are timed from their first edge (DESIGN §4 "One event loop"; deploy/LIGHTS.md).
/// The loop hands the panel the time it woke; a database save between that wake and the panel's write
/// (`synchronous=FULL`: an `fdatasync`, tens of ms on an SD card) must delay the pattern, not cut its front.
@Suite("Patterns start at their first edge, whatever the loop did since it woke")
struct PatternStartTests {
    /// The daemon's turn after a save, on a hand-moved clock: it wakes at `wakeMs`, the save takes `saveMs`,
    /// the routine then asks for `pattern` with the wake time, and the loop runs the panel's deadlines with
    /// fresh clock readings (sleeping to each) until `untilMs`.
    private func playAfterSave(
        _ pattern: OutputPattern, on output: PanelOutput, saveMs: Int64, untilMs: Int64 = 60_000
    ) throws -> [Int64] {
        let clock = HandClock()
        let chip = StampingChip(clock: clock)
        let panel = try Panel(chip: chip)
        let wakeMs: Int64 = 5_000
        clock.ms = wakeMs
        clock.ms += saveMs
        try panel.show(pattern, on: output, nowMs: wakeMs)
        while let next = panel.nextDeadlineMs, next <= untilMs {
            clock.ms = max(clock.ms, next)
            _ = panel.onDeadline(nowMs: clock.ms)
        }
        return chip.stretches(PinMap.standard.line(of: output))
    }

    @Test(
        "After a save of 0 to 200 ms the rising triple beep is still 60/120/240 ms on with 120 ms gaps (exact here)",
        arguments: [0, 1, 51, 59, 200] as [Int64])
    func risingTripleAfterSave(saveMs: Int64) throws {
        let stretches = try playAfterSave(Sound.complete.pattern, on: .buzzer, saveMs: saveMs)
        #expect(stretches == [60, 120, 120, 120, 240])
    }

    @Test("After a 23 ms save the questionnaire's save sound is still 70 on, 80 off, 200 on")
    func savedSoundAfterSave() throws {
        let stretches = try playAfterSave(Sound.questionnaireSaved.pattern, on: .buzzer, saveMs: 23)
        #expect(stretches == [70, 80, 200])
    }

    @Test("After a 300 ms save a readout channel's lamp still waits out the blue count and stays lit 3 s")
    func channelLampAfterSave() throws {
        let display = Indication.channel(3, .green).display
        let green = try playAfterSave(display.green, on: .green, saveMs: 300)
        #expect(green == [Int64(Indication.channelShowMs)])
        let blue = try playAfterSave(display.blue, on: .blue, saveMs: 300)
        #expect(blue == [300, 300, 300, 300, 300])
    }
}

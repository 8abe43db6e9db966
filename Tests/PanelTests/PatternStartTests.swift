import Panel
import Platform
import RecoveryCore
import Simulation
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

    /// What each read of an input line costs on the clock (a kernel line under emulation: about 1–2 ms).
    var readCostMs: Int64 = 0
    /// How long the next output write waits before the line changes (the process preempted once).
    var nextWriteDelayMs: Int64 = 0

    init(clock: HandClock) { self.clock = clock }

    var label: String { inner.label }

    func requestInput(offset: UInt32, bias: LineBias, edge: EdgeDetection, consumer: String) throws(PanelError)
        -> any GPIOInput
    {
        Costly(line: try inner.requestInput(offset: offset, bias: bias, edge: edge, consumer: consumer), chip: self)
    }

    final class Costly: GPIOInput {
        let line: any GPIOInput
        unowned let chip: StampingChip
        init(line: any GPIOInput, chip: StampingChip) {
            self.line = line
            self.chip = chip
        }
        var offset: UInt32 { line.offset }
        var descriptor: FileDescriptor { line.descriptor }
        func read() throws(PanelError) -> Bool {
            chip.clock.ms += chip.readCostMs
            return try line.read()
        }
        func readEvents() throws(PanelError) -> [EdgeEvent] { try line.readEvents() }
        func release() { line.release() }
    }

    func requestOutput(offset: UInt32, initiallyHigh: Bool, drive: OutputDrive, consumer: String) throws(PanelError)
        -> any GPIOOutput
    {
        Stamped(
            line: try inner.requestOutput(offset: offset, initiallyHigh: initiallyHigh, drive: drive, consumer: consumer),
            chip: self)
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
            chip.clock.ms += chip.nextWriteDelayMs
            chip.nextWriteDelayMs = 0
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

    /// Plays `pattern` from `startMs`; each deadline is served `lateMs` after it falls due (a busy loop).
    private func playLate(_ pattern: OutputPattern, on output: PanelOutput, lateMs: Int64, untilMs: Int64) throws
        -> [Int64]
    {
        let clock = HandClock()
        let chip = StampingChip(clock: clock)
        let panel = try Panel(chip: chip)
        clock.ms = 1_000
        try panel.show(pattern, on: output, nowMs: clock.ms)
        var first = true
        while let next = panel.nextDeadlineMs, next <= untilMs {
            clock.ms = max(clock.ms, first ? next : next + lateMs)
            first = false
            _ = panel.onDeadline(nowMs: clock.ms)
        }
        return chip.stretches(PinMap.standard.line(of: output))
    }

    @Test(
        "A loop that wakes late inside a sound stretches it; it never merges its beeps or drops one",
        arguments: [0, 30, 100, 400] as [Int64])
    func lateWakesKeepEveryStep(lateMs: Int64) throws {
        let stretches = try playLate(Sound.complete.pattern, on: .buzzer, lateMs: lateMs, untilMs: 10_000)
        // Five stretches: on 60, off 120, on 120, off 120, on 240, each at least its length and at most
        // its length plus the lateness.
        let nominal: [Int64] = [60, 120, 120, 120, 240]
        #expect(stretches.count == nominal.count, "\(stretches)")
        for (got, want) in zip(stretches, nominal) {
            #expect(got >= want / 2 && got <= want + lateMs, "\(stretches)")
        }
    }

    @Test("A late loop does not lose a blink of a fault code: 7 blinks stay 7 in every pass")
    func lateWakesKeepTheBlinkCount() throws {
        let code = LightPattern.code(7)
        let stretches = try playLate(code, on: .red, lateMs: 350, untilMs: 40_000)
        // On stretches, in order; a pass ends with the code's 1.5 s pause (an off stretch longer than 1 s).
        var counts: [Int] = []
        var blinks = 0
        for (i, length) in stretches.enumerated() {
            if i % 2 == 0 { blinks += 1 } else if length > 1_000 {
                counts.append(blinks)
                blinks = 0
            }
        }
        #expect(counts.count >= 2 && counts.allSatisfy { $0 == 7 }, "\(counts)")
    }

    @Test("A digit's beep is whole while the keypad is being scanned (the scan's reads take 2 ms each)")
    func beepDuringScan() throws {
        let clock = HandClock()
        let chip = StampingChip(clock: clock)
        let panel = try Panel(chip: chip)
        chip.readCostMs = 2
        clock.ms = 1_000
        // Key 5 held: the column's edge starts the scan, which repeats every 10 ms while the key is down.
        chip.inner.setContact(PinMap.standard.keypadRows[1], PinMap.standard.keypadColumns[1], closed: true)
        for fd in panel.descriptors { _ = panel.onReadable(fd, nowMs: clock.ms) }
        try panel.play(Sound.digitAccepted.pattern, nowMs: clock.ms)
        var first = true
        while let next = panel.nextDeadlineMs, next <= 1_200 {
            clock.ms = max(clock.ms, next)
            _ = panel.onDeadline(nowMs: clock.ms)
            if first {
                // The finger lifts: the scans go on for the debounce, then stop before the beep ends.
                chip.inner.setContact(PinMap.standard.keypadRows[1], PinMap.standard.keypadColumns[1], closed: false)
                first = false
            }
        }
        // Never shorter than 70 ms; the off edge may be late by the scan that ran just before it (12 reads).
        let stretches = chip.stretches(PinMap.standard.buzzer)
        #expect(stretches.count == 1 && (70...70 + 12 * chip.readCostMs).contains(stretches[0]), "\(stretches)")
    }

    @Test(
        "A preemption of up to 14 ms before a pattern's first write delays it, never shortens its first step",
        arguments: [0, 3, 14] as [Int64])
    func slowFirstWrite(delayMs: Int64) throws {
        let clock = HandClock()
        let chip = StampingChip(clock: clock)
        let panel = try Panel(chip: chip)
        panel.writeClock = { clock.ms }
        clock.ms = 2_000
        // The readout's turn: its blink and its sound start together, the blink's line written first, and the
        // process is preempted just before that write (the loop's "now" was read before it).
        try panel.show(LightPattern.count(3), on: .blue, nowMs: clock.ms)
        try panel.play(Sound.complete.pattern, nowMs: clock.ms)
        chip.nextWriteDelayMs = delayMs
        while let next = panel.nextDeadlineMs, next <= 10_000 {
            clock.ms = max(clock.ms, next)
            _ = panel.onDeadline(nowMs: clock.ms)
        }
        // Each pattern's steps count from its first edge as the kernel stamped it: exact whatever the wait
        // (the triple beep's first edge comes after the blink's, both after the wait).
        #expect(chip.stretches(PinMap.standard.buzzer) == [60, 120, 120, 120, 240])
        #expect(chip.stretches(PinMap.standard.line(of: .blue)) == [300, 300, 300, 300, 300])
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

import Panel
import RecoveryCore
import Simulation
import Testing

@Suite("Keypad: 3×4 matrix scanned only while a key is down (DESIGN §2)")
struct KeypadTests {
    @Test(
        "Each of the 12 keys is found by the scan: pressed 30 ms after its contact closes, released 30 ms after it opens",
        arguments: KeypadKey.allCases)
    func eachKeyIsFound(key: KeypadKey) throws {
        let sim = try SimulatedPanel()
        sim.schedule(
            PanelScript(entries: [.init(atMs: 1000, action: .keyDown(key)), .init(atMs: 1100, action: .keyUp(key))]),
            startMs: 0)
        let events = sim.run(fromMs: 0, untilMs: 5000)
        #expect(
            events == [
                TimedPanelEvent(atMs: 1030, event: .keyPressed(key)),
                TimedPanelEvent(atMs: 1130, event: .keyReleased(key)),
            ])
        #expect(!sim.panel.isKeypadScanning)
    }

    @Test("Two keys held together (5 then 9) are both reported, and each release on its own")
    func twoKeys() throws {
        let sim = try SimulatedPanel()
        sim.schedule(
            try PanelScript(parsing: "t=1000 key-down 5\nt=1200 key-down 9\nt=1400 key-up 5\nt=1600 key-up 9"),
            startMs: 0)
        #expect(
            sim.run(fromMs: 0, untilMs: 5000) == [
                TimedPanelEvent(atMs: 1030, event: .keyPressed(.digit(5))),
                TimedPanelEvent(atMs: 1230, event: .keyPressed(.digit(9))),
                TimedPanelEvent(atMs: 1430, event: .keyReleased(.digit(5))),
                TimedPanelEvent(atMs: 1630, event: .keyReleased(.digit(9))),
            ])
    }

    @Test("Two keys of one column (2 and 5) are both found, and the scan never joins a high row to the low one")
    func twoKeysOfOneColumnShortNothing() throws {
        let sim = try SimulatedPanel()
        sim.schedule(
            try PanelScript(parsing: "t=1000 key-down 2\nt=1200 key-down 5\nt=1400 key-up 2\nt=1600 key-up 5"),
            startMs: 0)
        #expect(
            sim.run(fromMs: 0, untilMs: 5000) == [
                TimedPanelEvent(atMs: 1030, event: .keyPressed(.digit(2))),
                TimedPanelEvent(atMs: 1230, event: .keyPressed(.digit(5))),
                TimedPanelEvent(atMs: 1430, event: .keyReleased(.digit(2))),
                TimedPanelEvent(atMs: 1630, event: .keyReleased(.digit(5))),
            ])
        // With push-pull rows each scan step would drive row 1 low against row 2 high through the two keys.
        #expect(sim.chip.shorts == 0)
    }

    @Test(
        "The simulated chip sees the short two push-pull rows make through one column, and none with open drain",
        arguments: [OutputDrive.pushPull, .openDrain])
    func pushPullRowsShortThroughAColumn(drive: OutputDrive) throws {
        let chip = SimulatedChip(label: "test")
        let high = try chip.requestOutput(offset: 1, initiallyHigh: true, drive: drive, consumer: "row1")
        let low = try chip.requestOutput(offset: 2, initiallyHigh: true, drive: drive, consumer: "row2")
        let column = try chip.requestInput(offset: 3, bias: .pullUp, edge: .both, consumer: "col")
        chip.setContact(1, 3, closed: true)
        chip.setContact(2, 3, closed: true)
        try low.set(high: false)
        #expect(try column.read() == false, "the low row pulls the column low either way")
        #expect(chip.shorts == (drive == .pushPull ? 1 : 0))
        try high.set(high: false)
        try high.set(high: true)
        #expect(chip.shorts == (drive == .pushPull ? 2 : 0))
    }

    @Test("A key contact that flickers for less than 30 ms is no key press")
    func flickerIsIgnored() throws {
        let sim = try SimulatedPanel()
        sim.schedule(
            PanelScript(entries: [.init(atMs: 1000, action: .keyDown(.hash)), .init(atMs: 1015, action: .keyUp(.hash))]
            ),
            startMs: 0)
        #expect(sim.run(fromMs: 0, untilMs: 5000).isEmpty)
    }

    @Test("Idle, the keypad reads nothing and needs no timer for hours; all rows are driven low so a key wakes it")
    func noScanningWhileIdle() throws {
        let sim = try SimulatedPanel()
        let readsAtStart = sim.chip.levelReads
        #expect(sim.nextDeadlineMs == nil)
        #expect(sim.run(fromMs: 0, untilMs: 10 * 3_600_000).isEmpty)
        #expect(sim.chip.levelReads == readsAtStart)
        for row in PinMap.standard.keypadRows { #expect(sim.chip.outputLevel(row) == false) }

        sim.schedule(
            PanelScript(entries: [
                .init(atMs: 1000, action: .keyDown(.digit(7))), .init(atMs: 1100, action: .keyUp(.digit(7))),
            ]),
            startMs: 10 * 3_600_000)
        let events = sim.run(fromMs: 10 * 3_600_000, untilMs: 11 * 3_600_000)
        #expect(events.map(\.event) == [.keyPressed(.digit(7)), .keyReleased(.digit(7))])
        // Scans run only from the wake-up to 30 ms after the release: every 10 ms over 1000…1130,
        // 14 scans of 4 rows × 3 columns.
        #expect(sim.chip.levelReads - readsAtStart == 14 * 12)
        let readsWhenIdleAgain = sim.chip.levelReads
        #expect(sim.nextDeadlineMs == nil)
        #expect(sim.run(fromMs: 11 * 3_600_000, untilMs: 20 * 3_600_000).isEmpty)
        #expect(sim.chip.levelReads == readsWhenIdleAgain)
        for row in PinMap.standard.keypadRows { #expect(sim.chip.outputLevel(row) == false) }
    }

    @Test("A GO press does not wake the keypad scan")
    func goDoesNotScanKeypad() throws {
        let sim = try SimulatedPanel()
        let before = sim.chip.levelReads
        sim.schedule(try PanelScript(parsing: "t=100 go"), startMs: 0)
        _ = sim.run(fromMs: 0, untilMs: 1000)
        // GO's two debounce reads, no keypad reads.
        #expect(sim.chip.levelReads - before == 2)
    }
}

import Platform
import RecoveryCore

/// The bedside panel (DESIGN §1–2): GO button, 3×4 keypad, traffic light, blue status light and buzzer,
/// on any `GPIOChip`. It follows the event-loop contract: watch `descriptors`, call `onReadable` when one
/// is readable, arm a timer to `nextDeadlineMs` and call `onDeadline` then. It never blocks or sleeps, and
/// has no clock of its own: "now" comes in with each call, and the owner's clock, when given as
/// `writeClock`, times a pattern's first edge. Idle (no key down, no pattern running) it has no deadline.
public final class Panel {
    public let pins: PinMap
    public let timing: PanelTiming
    public let chip: any GPIOChip
    private let go: GoButton
    private let keypad: Keypad
    private var outputs: [PanelOutput: OutputChannel] = [:]
    private var released = false

    /// Called for every change of an output's level, with the time: a record of what the lamps and buzzer
    /// did, for whoever drives the panel.
    public var onOutputChange: ((_ output: PanelOutput, _ on: Bool, _ atMs: Int64) -> Void)?

    /// The owner's monotonic clock, read just after a timed pattern's first edge is written: the pattern's
    /// steps count from then. The kernel stamps an edge inside the write, so a wait between the caller's
    /// "now" and the write (the process preempted, other lines written first) would otherwise be cut from
    /// the first step; read after it, the wait delays the pattern instead (measured on kernel GPIO lines
    /// under emulation on a loaded host: a 60 ms beep played as 46 ms, a 300 ms blink as 288 ms). Without
    /// it the first edge counts from the caller's "now".
    public var writeClock: (() -> Int64)?

    /// The consumer names the panel holds its input lines by (the lamps and buzzer use `PanelOutput`'s raw
    /// values); the keypad's carry the row or column number from 1. `recoverydeck doctor` looks for them.
    public static let goConsumer = "go-button"
    public static let keypadRowConsumer = "keypad-row"
    public static let keypadColumnConsumer = "keypad-col"

    /// Requests every line of `pins` on `chip`: GO and the keypad columns as pulled-up inputs with edge
    /// events on both edges (GO is wired to ground, so a press is its falling edge; the rising edge wakes
    /// the loop for the release that ends a press or long press), the keypad rows driven low (idle), the
    /// lights and buzzer off.
    public init(chip: any GPIOChip, pins: PinMap = .standard, timing: PanelTiming = .standard) throws(PanelError) {
        try pins.validate()
        self.chip = chip
        self.pins = pins
        self.timing = timing
        var requestedInputs: [any GPIOInput] = []
        var requestedOutputs: [any GPIOOutput] = []
        do {
            let goLine = try chip.requestInput(
                offset: pins.goButton, bias: .pullUp, edge: .both, consumer: Panel.goConsumer)
            requestedInputs.append(goLine)
            var columns: [any GPIOInput] = []
            for (i, offset) in pins.keypadColumns.enumerated() {
                let line = try chip.requestInput(
                    offset: offset, bias: .pullUp, edge: .both, consumer: Panel.keypadColumnConsumer + "\(i + 1)")
                requestedInputs.append(line)
                columns.append(line)
            }
            var rows: [any GPIOOutput] = []
            for (i, offset) in pins.keypadRows.enumerated() {
                // Open drain: two keys of one column must not join a high row to the low one being read.
                let line = try chip.requestOutput(
                    offset: offset, initiallyHigh: false, drive: .openDrain,
                    consumer: Panel.keypadRowConsumer + "\(i + 1)")
                requestedOutputs.append(line)
                rows.append(line)
            }
            for output in PanelOutput.allCases {
                let line = try chip.requestOutput(
                    offset: pins.line(of: output), initiallyHigh: false, consumer: output.rawValue)
                requestedOutputs.append(line)
                outputs[output] = OutputChannel(line: line)
            }
            go = try GoButton(line: goLine, timing: timing)
            keypad = Keypad(rows: rows, columns: columns, timing: timing)
        } catch {
            for line in requestedInputs { line.release() }
            for line in requestedOutputs { line.release() }
            throw error
        }
    }

    deinit { close() }

    // MARK: Event-loop contract

    /// GO's and the keypad columns' edge descriptors.
    public var descriptors: [FileDescriptor] { [go.line.descriptor] + keypad.descriptors }

    public func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [PanelEvent] {
        do {
            if fd == go.line.descriptor {
                try go.onReadable(nowMs: nowMs)
                return try go.onDeadline(nowMs: nowMs)
            }
            if keypad.descriptors.contains(fd) { return try keypad.onReadable(nowMs: nowMs) }
        } catch {
            return [.fault(error)]
        }
        return []
    }

    /// The earliest time the panel needs to run: a debounce settling, a long press coming due, the next
    /// keypad scan while a key is down, the next step of a running pattern. Nil when idle.
    public var nextDeadlineMs: Int64? {
        var deadlines: [Int64?] = [go.nextDeadlineMs, keypad.nextDeadlineMs]
        for channel in outputs.values { deadlines.append(channel.nextChangeMs) }
        return EventLoop.earliest(deadlines)
    }

    public func onDeadline(nowMs: Int64) -> [PanelEvent] {
        var events: [PanelEvent] = []
        // Outputs first: `nowMs` is the time of their writes only before the keypad's scan, which takes
        // a dozen line operations (measured on kernel GPIO under emulation: ~20 ms cut from a beep after it).
        for output in PanelOutput.allCases {
            guard let channel = outputs[output], let due = channel.nextChangeMs, due <= nowMs else { continue }
            do { try advance(output, channel, nowMs: nowMs) } catch { events.append(.fault(error)) }
        }
        do { events += try go.onDeadline(nowMs: nowMs) } catch { events.append(.fault(error)) }
        do { events += try keypad.onDeadline(nowMs: nowMs) } catch { events.append(.fault(error)) }
        return events
    }

    // MARK: Outputs

    /// Starts `pattern` on `output`, replacing whatever it was doing. A timed pattern's steps count from
    /// the moment its first edge is written, not from `nowMs` (when the loop woke): the write is left to
    /// the panel's deadline, due at once, which the loop runs with a fresh reading of its clock after the
    /// work that asked for the pattern. Work done between the wake and this call (a database save's
    /// `fdatasync`) therefore delays a sound or blink instead of cutting its front (measured on a kernel
    /// GPIO chip: a 60/120/240 ms triple beep played as 9 + 240 ms after a save). A pattern without steps
    /// (on, off) has no timing to cut and is written now.
    public func show(_ pattern: OutputPattern, on output: PanelOutput, nowMs: Int64) throws(PanelError) {
        guard let channel = outputs[output] else { return }
        channel.pattern = pattern
        if pattern.isSteady {
            channel.startMs = nowMs
            try advance(output, channel, nowMs: nowMs)
        } else {
            channel.startMs = nil
            channel.nextChangeMs = nowMs
        }
    }

    /// Plays `pattern` on the buzzer.
    public func play(_ pattern: OutputPattern, nowMs: Int64) throws(PanelError) {
        try show(pattern, on: .buzzer, nowMs: nowMs)
    }

    /// Turns every light and the buzzer off.
    public func darken(nowMs: Int64) throws(PanelError) {
        for output in PanelOutput.allCases { try show(.off, on: output, nowMs: nowMs) }
    }

    /// The pattern each output is running.
    public func pattern(on output: PanelOutput) -> OutputPattern { outputs[output]?.pattern ?? .off }

    /// Whether each output is on right now.
    public func isOn(_ output: PanelOutput) -> Bool { outputs[output]?.isOn ?? false }

    /// True while GO is down (debounced).
    public var isGoDown: Bool { go.isPressed }

    /// True while the keypad is being scanned (a key down or just released).
    public var isKeypadScanning: Bool { keypad.isScanning }

    /// Turns everything off and releases every line. Further calls do nothing.
    public func close() {
        guard !released else { return }
        released = true
        for channel in outputs.values { try? channel.line.set(high: false) }
        for channel in outputs.values { channel.line.release() }
        for row in keypad.rows { row.release() }
        for column in keypad.columns { column.release() }
        go.line.release()
    }

    /// Writes the output's level for now. A timed pattern moves one step at a time and never skips one: when
    /// the loop wakes late (a save's `fdatasync`, a busy Pi) the step due is written with at least half its
    /// length left, the rest of the pattern shifted by the delay, so a late wake stretches a sound instead of
    /// merging its beeps into one tone or dropping a blink from a fault code (measured on kernel GPIO lines
    /// under load: a rising triple beep played as one 651 ms tone when its 60 ms gaps fell inside a wake).
    private func advance(_ output: PanelOutput, _ channel: OutputChannel, nowMs: Int64) throws(PanelError) {
        let pattern = channel.pattern
        let on: Bool
        var first = false
        if pattern.isSteady {
            channel.startMs = nowMs
            channel.nextChangeMs = nil
            on = pattern.rest
        } else {
            if let startMs = channel.startMs {
                let due = channel.step + 1
                if pattern.stepNumber(atMs: nowMs - startMs) >= due {
                    let dueStart = startMs + pattern.startMs(ofStep: due)
                    let length = pattern.lengthMs(ofStep: due) ?? 0
                    let late = nowMs - dueStart
                    // Too late to fit half the step (or past it): the step starts now, the grid moves with it.
                    if late * 2 > length { channel.startMs = nowMs - pattern.startMs(ofStep: due) }
                    channel.step = due
                }
            } else {
                // The first edge: the pattern's steps count from this write.
                channel.startMs = nowMs
                channel.step = 0
                first = true
            }
            let startMs = channel.startMs ?? nowMs
            on = pattern.isOn(step: channel.step)
            channel.nextChangeMs =
                pattern.lengthMs(ofStep: channel.step) == nil ? nil : startMs + pattern.startMs(ofStep: channel.step + 1)
        }
        if on != channel.isOn {
            try channel.line.set(high: on)
            channel.isOn = on
            var writtenMs = nowMs
            if first, let writeClock {
                // The grid moves with the write (see `writeClock`).
                writtenMs = max(nowMs, writeClock())
                channel.startMs = writtenMs
                channel.nextChangeMs = channel.nextChangeMs.map { $0 + writtenMs - nowMs }
            }
            onOutputChange?(output, on, writtenMs)
        }
    }
}

/// One output line and the pattern it is playing.
final class OutputChannel {
    let line: any GPIOOutput
    var pattern: OutputPattern = .off
    /// When the pattern's first edge was written; nil while that write is still due.
    var startMs: Int64? = 0
    /// The step being played, counted from the first edge across repeats (`OutputPattern.startMs(ofStep:)`).
    var step = 0
    var isOn = false
    var nextChangeMs: Int64?

    init(line: any GPIOOutput) { self.line = line }
}

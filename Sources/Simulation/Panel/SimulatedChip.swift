import Panel
import Platform

/// An in-memory GPIO chip with the wiring of a panel: inputs with pull-ups, outputs, and switches that
/// connect a line to ground (a button) or two lines to each other (a keypad contact between a row and a
/// column). Input levels follow from the wiring, edge events are queued per input line, and each input's
/// eventfd is readable while events are queued, so the same event loop polls it as it polls real lines.
public final class SimulatedChip: GPIOChip {
    public let label: String
    /// The time stamped on edge events, in monotonic ms; the simulation's driver moves it.
    public var nowMs: Int64 = 0
    /// How many times any input's level was read (idle panels must not read at all).
    public private(set) var levelReads = 0

    private var inputs: [UInt32: SimulatedInput] = [:]
    private var outputs: [UInt32: SimulatedOutput] = [:]
    private var grounded: Set<UInt32> = []
    private var contacts: Set<Contact> = []

    private struct Contact: Hashable {
        let a: UInt32
        let b: UInt32
        init(_ x: UInt32, _ y: UInt32) {
            a = min(x, y)
            b = max(x, y)
        }
    }

    public init(label: String = "simulated-panel") {
        self.label = label
    }

    deinit {
        for input in inputs.values { input.counter.close() }
    }

    // MARK: GPIOChip

    public func requestInput(offset: UInt32, bias: LineBias, edge: EdgeDetection, consumer: String) throws(PanelError)
        -> any GPIOInput
    {
        if inputs[offset] != nil || outputs[offset] != nil {
            throw .lineUnavailable(offset: offset, role: consumer, .busy)
        }
        let counter: EventFD
        do { counter = try EventFD() } catch { throw .lineUnavailable(offset: offset, role: consumer, error) }
        let input = SimulatedInput(offset: offset, bias: bias, edge: edge, counter: counter, chip: self)
        inputs[offset] = input
        input.level = computedLevel(of: input)
        return input
    }

    public func requestOutput(offset: UInt32, initiallyHigh: Bool, drive: OutputDrive, consumer: String)
        throws(PanelError) -> any GPIOOutput
    {
        if inputs[offset] != nil || outputs[offset] != nil {
            throw .lineUnavailable(offset: offset, role: consumer, .busy)
        }
        let output = SimulatedOutput(offset: offset, high: initiallyHigh, drive: drive, chip: self)
        outputs[offset] = output
        settle()
        return output
    }

    // MARK: The outside world

    /// Connects `offset` to ground (a button to ground, pressed) or disconnects it.
    public func setGrounded(_ offset: UInt32, _ isGrounded: Bool) {
        if isGrounded { grounded.insert(offset) } else { grounded.remove(offset) }
        settle()
    }

    /// Closes or opens a contact between two lines (a keypad key between its row and column).
    public func setContact(_ a: UInt32, _ b: UInt32, closed: Bool) {
        if closed { contacts.insert(Contact(a, b)) } else { contacts.remove(Contact(a, b)) }
        settle()
    }

    /// An output's level, or nil when `offset` is not a requested output.
    public func outputLevel(_ offset: UInt32) -> Bool? { outputs[offset]?.high }

    /// An input's level as the wiring makes it, without counting as a read by the panel.
    public func inputLevel(_ offset: UInt32) -> Bool? { inputs[offset]?.level }

    /// The offsets of the requested inputs and outputs.
    public var requestedInputs: [UInt32] { inputs.keys.sorted() }
    public var requestedOutputs: [UInt32] { outputs.keys.sorted() }

    /// The input with this offset, for the event loop to find the descriptor of.
    public func input(_ offset: UInt32) -> (any GPIOInput)? { inputs[offset] }

    // MARK: Wiring

    /// A pulled line reads its pull unless a switch connects it to ground or to an output driven low.
    private func computedLevel(of input: SimulatedInput) -> Bool {
        if grounded.contains(input.offset) { return false }
        for contact in contacts where contact.a == input.offset || contact.b == input.offset {
            let other = contact.a == input.offset ? contact.b : contact.a
            if grounded.contains(other) { return false }
            if let driver = outputs[other], !driver.high { return false }
        }
        switch input.bias {
        case .pullDown: return false
        case .pullUp, .asIs, .disabled: return true
        }
    }

    /// How many times two outputs, one driving high and one low, were joined through closed contacts on one
    /// line (two keys of one keypad column with push-pull rows): a short that hardware would pass as current
    /// through the keys, leaving the column at neither level.
    public private(set) var shorts = 0
    private var shorted: Set<Contact> = []

    /// The pairs of outputs joined through one line's contacts where one drives high and the other low.
    private func currentShorts() -> Set<Contact> {
        var found: Set<Contact> = []
        let lines = Set(contacts.flatMap { [$0.a, $0.b] })
        for line in lines {
            let joined = contacts.compactMap { (c) -> SimulatedOutput? in
                c.a == line ? outputs[c.b] : (c.b == line ? outputs[c.a] : nil)
            }
            for high in joined where high.drivesHigh {
                for low in joined where !low.high { found.insert(Contact(high.offset, low.offset)) }
            }
        }
        return found
    }

    fileprivate func settle() {
        let now = currentShorts()
        shorts += now.subtracting(shorted).count
        shorted = now
        for input in inputs.values {
            let level = computedLevel(of: input)
            guard level != input.level else { continue }
            input.level = level
            let wanted =
                switch input.edge {
                case .none: false
                case .both: true
                case .rising: level
                case .falling: !level
                }
            if wanted {
                input.queue.append(
                    EdgeEvent(offset: input.offset, rising: level, timestampNs: UInt64(max(0, nowMs)) * 1_000_000))
                try? input.counter.signal()
            }
        }
    }

    fileprivate func countRead() { levelReads += 1 }

    fileprivate func release(input: SimulatedInput) {
        input.counter.close()
        inputs[input.offset] = nil
    }

    fileprivate func release(output: SimulatedOutput) {
        outputs[output.offset] = nil
        settle()
    }
}

final class SimulatedInput: GPIOInput {
    let offset: UInt32
    let bias: LineBias
    let edge: EdgeDetection
    let counter: EventFD
    var level = true
    var queue: [EdgeEvent] = []
    private weak var chip: SimulatedChip?

    init(offset: UInt32, bias: LineBias, edge: EdgeDetection, counter: EventFD, chip: SimulatedChip) {
        self.offset = offset
        self.bias = bias
        self.edge = edge
        self.counter = counter
        self.chip = chip
    }

    var descriptor: FileDescriptor { counter.descriptor }

    func read() throws(PanelError) -> Bool {
        guard let chip else { throw .lineFailed(offset: offset, Errno(rawValue: 9)) }
        chip.countRead()
        return level
    }

    func readEvents() throws(PanelError) -> [EdgeEvent] {
        do { try counter.drain() } catch { throw .lineFailed(offset: offset, error) }
        defer { queue.removeAll() }
        return queue
    }

    func release() { chip?.release(input: self) }
}

final class SimulatedOutput: GPIOOutput {
    let offset: UInt32
    var high: Bool
    let drive: OutputDrive
    private weak var chip: SimulatedChip?

    init(offset: UInt32, high: Bool, drive: OutputDrive, chip: SimulatedChip) {
        self.offset = offset
        self.high = high
        self.drive = drive
        self.chip = chip
    }

    /// Driving its line high itself (an open-drain output set high only lets go of it).
    var drivesHigh: Bool { high && drive == .pushPull }

    func set(high: Bool) throws(PanelError) {
        guard let chip else { throw .lineFailed(offset: offset, Errno(rawValue: 9)) }
        guard high != self.high else { return }
        self.high = high
        chip.settle()
    }

    func release() { chip?.release(output: self) }
}

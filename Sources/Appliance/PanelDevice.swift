import Panel
import Platform
import RecoveryCore

/// What the person did at the panel, in the core's words.
public enum PanelInput: Hashable, Sendable {
    case go(GoPress)
    case key(RecoveryCore.KeypadKey)
}

/// The panel as the daemon uses it: the GPIO panel or the simulated one behind the same calls. It turns
/// the panel's debounced edges into presses, shows whole `PanelDisplay`s and plays `Sound`s, and keeps
/// what each lamp shows for `watch` and the demo.
public final class PanelDevice {
    public let panel: Panel
    /// Present for `panel = simulated`: its hands press keys for the control socket and scripts.
    public let simulated: SimulatedPanel?
    public var buzzerEnabled: Bool
    public private(set) var display = PanelDisplay.dark
    public private(set) var lastSound: Sound?

    public init(gpio chip: any GPIOChip, pins: PinMap, buzzerEnabled: Bool) throws(PanelError) {
        panel = try Panel(chip: chip, pins: pins)
        simulated = nil
        self.buzzerEnabled = buzzerEnabled
    }

    public init(simulatedWith pins: PinMap, buzzerEnabled: Bool) throws(PanelError) {
        let sim = try SimulatedPanel(pins: pins)
        // The simulated panel keeps every lamp change for its own tests; a daemon running for months
        // must not, and shows its lamps through `display` instead.
        sim.panel.onOutputChange = nil
        simulated = sim
        panel = sim.panel
        self.buzzerEnabled = buzzerEnabled
    }

    // MARK: Event-loop contract

    public var descriptors: [FileDescriptor] { panel.descriptors }

    public func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [PanelInput] {
        let events = simulated?.onReadable(fd, nowMs: nowMs) ?? panel.onReadable(fd, nowMs: nowMs)
        return inputs(from: events)
    }

    public var nextDeadlineMs: Int64? { simulated?.nextDeadlineMs ?? panel.nextDeadlineMs }

    public func onDeadline(nowMs: Int64) -> [PanelInput] {
        let events = simulated?.onDeadline(nowMs: nowMs) ?? panel.onDeadline(nowMs: nowMs)
        return inputs(from: events)
    }

    /// Faults the panel reported since last asked (a line that could not be read or set).
    public private(set) var faults: [String] = []

    public func takeFaults() -> [String] {
        defer { faults.removeAll() }
        return faults
    }

    private func inputs(from events: [PanelEvent]) -> [PanelInput] {
        var result: [PanelInput] = []
        for event in events {
            switch event {
            case .goLongPress: result.append(.go(.long))
            case .goReleased(let wasLong): if !wasLong { result.append(.go(.short)) }
            case .keyPressed(let key):
                if let core = RecoveryCore.KeypadKey(label: label(ofPanelKey: key)) { result.append(.key(core)) }
            case .fault(let error): faults.append(error.description)
            case .goPressed, .keyReleased: break
            }
        }
        return result
    }

    // MARK: Lamps and buzzer

    /// Shows `display` from `nowMs`: every lamp's pattern starts now.
    public func show(_ display: PanelDisplay, nowMs: Int64) {
        self.display = display
        for lamp in Lamp.allCases {
            do {
                try panel.show(PanelDevice.output(display[lamp]), on: PanelDevice.output(lamp), nowMs: nowMs)
            } catch {
                faults.append(error.description)
            }
        }
    }

    public func play(_ sound: Sound, nowMs: Int64) {
        lastSound = sound
        guard buzzerEnabled else { return }
        do { try panel.play(PanelDevice.output(sound.pattern), nowMs: nowMs) } catch {
            faults.append(error.description)
        }
    }

    public func darken(nowMs: Int64) {
        display = .dark
        try? panel.darken(nowMs: nowMs)
    }

    // MARK: Hands (simulated panel only)

    /// Schedules presses on the simulated panel at times from `startMs`: `go` (held 150 ms), `go-long`
    /// (held 2.5 s) or a key by its label (100 ms). False on the GPIO panel, or for an unknown key.
    public func schedule(presses: [(atMs: Int64, what: String)], startMs: Int64) -> Bool {
        guard let simulated else { return false }
        var entries: [PanelScript.Entry] = []
        for (at, what) in presses {
            switch what {
            case "go":
                entries += [.init(atMs: at, action: .goDown), .init(atMs: at + PanelScript.goHoldMs, action: .goUp)]
            case "go-long":
                entries += [
                    .init(atMs: at, action: .goDown), .init(atMs: at + PanelScript.goLongHoldMs, action: .goUp),
                ]
            default:
                guard let down = panelAction(pressing: what, down: true),
                    let up = panelAction(pressing: what, down: false)
                else { return false }
                entries += [.init(atMs: at, action: down), .init(atMs: at + PanelScript.keyHoldMs, action: up)]
            }
        }
        simulated.schedule(PanelScript(entries: entries), startMs: startMs)
        return true
    }

    /// Schedules a whole script on the simulated panel, its t=0 at `startMs`.
    public func schedule(_ script: PanelScript, startMs: Int64) -> Bool {
        guard let simulated else { return false }
        simulated.schedule(script, startMs: startMs)
        return true
    }

    public func close() { panel.close() }

    // MARK: Pattern conversion

    static func output(_ lamp: Lamp) -> PanelOutput {
        switch lamp {
        case .red: .red
        case .yellow: .yellow
        case .green: .green
        case .blue: .blue
        }
    }

    static func output(_ pattern: LightPattern) -> OutputPattern {
        let steps = pattern.steps.map { OutputPattern.Step(on: $0.on, ms: Int64($0.ms)) }
        if pattern.repeats { return OutputPattern(name: pattern.name, steps: [], loop: steps) }
        return OutputPattern(name: pattern.name, steps: steps, finalLevel: pattern.rest)
    }

    static func output(_ pattern: BuzzerPattern) -> OutputPattern {
        OutputPattern(name: pattern.name, steps: pattern.steps.map { OutputPattern.Step(on: $0.on, ms: Int64($0.ms)) })
    }
}

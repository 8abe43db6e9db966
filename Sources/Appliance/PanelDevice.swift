import Panel
import Platform
import RecoveryCore

/// What the person did at the panel, in the core's words.
public enum PanelInput: Hashable, Sendable {
    case go(GoPress)
    case key(KeypadKey)
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
        // The simulated panel records every lamp and buzzer change, keeping the latest few thousand: a
        // daemon that runs it for months (the soak test's year of mornings) stays the same size.
        let sim = try SimulatedPanel(pins: pins)
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
            case .keyPressed(let key): result.append(.key(key))
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
                try panel.show(OutputPattern(display[lamp]), on: PanelDevice.output(lamp), nowMs: nowMs)
            } catch {
                faults.append(error.description)
            }
        }
    }

    public func play(_ sound: Sound, nowMs: Int64) {
        lastSound = sound
        guard buzzerEnabled else { return }
        do { try panel.play(OutputPattern(sound.pattern), nowMs: nowMs) } catch {
            faults.append(error.description)
        }
    }

    public func darken(nowMs: Int64) {
        display = .dark
        do { try panel.darken(nowMs: nowMs) } catch { faults.append(error.description) }
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
                guard let key = KeypadKey(label: what) else { return false }
                entries += [
                    .init(atMs: at, action: .keyDown(key)),
                    .init(atMs: at + PanelScript.keyHoldMs, action: .keyUp(key)),
                ]
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

    // MARK: Lamps to outputs

    static func output(_ lamp: Lamp) -> PanelOutput {
        switch lamp {
        case .red: .red
        case .yellow: .yellow
        case .green: .green
        case .blue: .blue
        }
    }
}

import Panel
import Platform
import RecoveryCore

/// What the person did at the panel, in the core's words.
public enum PanelInput: Hashable, Sendable {
    case go(GoPress)
    case key(KeypadKey)
}

/// The panel as the daemon uses it: the GPIO panel, or the one a simulated box hands in, behind the same
/// calls. It turns the panel's debounced edges into presses, shows whole `PanelDisplay`s and plays `Sound`s,
/// and keeps what each lamp shows for `watch` and the demo.
public final class PanelDevice {
    public let panel: Panel
    private let source: any PanelSource
    public var buzzerEnabled: Bool
    public private(set) var display = PanelDisplay.dark
    public private(set) var lastSound: Sound?

    public init(_ source: any PanelSource, buzzerEnabled: Bool) {
        self.source = source
        panel = source.panel
        self.buzzerEnabled = buzzerEnabled
    }

    // MARK: Event-loop contract

    public var descriptors: [FileDescriptor] { source.descriptors }

    public func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [PanelInput] {
        inputs(from: source.onReadable(fd, nowMs: nowMs))
    }

    public var nextDeadlineMs: Int64? { source.nextDeadlineMs }

    public func onDeadline(nowMs: Int64) -> [PanelInput] {
        inputs(from: source.onDeadline(nowMs: nowMs))
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
                try panel.show(display[lamp], on: PanelDevice.output(lamp), nowMs: nowMs)
            } catch {
                faults.append(error.description)
            }
        }
    }

    public func play(_ sound: Sound, nowMs: Int64) {
        lastSound = sound
        guard buzzerEnabled else { return }
        do { try panel.play(sound.pattern, nowMs: nowMs) } catch {
            faults.append(error.description)
        }
    }

    public func darken(nowMs: Int64) {
        display = .dark
        do { try panel.darken(nowMs: nowMs) } catch { faults.append(error.description) }
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

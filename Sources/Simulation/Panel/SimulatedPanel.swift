import Appliance
import Panel
import Platform
import RecoveryCore

/// One change of a light or the buzzer, with its time: the simulated panel's record.
public struct PanelChange: Hashable, Sendable, CustomStringConvertible {
    public var atMs: Int64
    public var output: PanelOutput
    public var on: Bool

    public init(atMs: Int64, output: PanelOutput, on: Bool) {
        self.atMs = atMs
        self.output = output
        self.on = on
    }

    public var description: String { "t=\(atMs) \(output.rawValue) \(on ? "on" : "off")" }
}

/// A panel event with the time it was reported.
public struct TimedPanelEvent: Hashable, Sendable, CustomStringConvertible {
    public var atMs: Int64
    public var event: PanelEvent

    public init(atMs: Int64, event: PanelEvent) {
        self.atMs = atMs
        self.event = event
    }

    public var description: String { "t=\(atMs) \(event)" }
}

/// The real `Panel` code on a `SimulatedChip`, with hands: it presses GO and keypad keys (now, or from a
/// script at their times) and records every light and buzzer change. It keeps the event-loop contract, so
/// a daemon runs it like the hardware panel (a `PanelSource` a simulated box hands in for `panel = simulated`);
/// `run(untilMs:)` drives it on a virtual clock for tests.
///
/// The records keep the latest `recordCapacity` entries each (a ring): a daemon on the simulated panel runs
/// for months (the soak test: a year of mornings) and must not grow with every press and blink.
public final class SimulatedPanel: PanelSource {
    /// Entries kept of each record: a whole morning's presses and lamp changes many times over.
    public static let defaultRecordCapacity = 4096

    public let chip: SimulatedChip
    public let panel: Panel
    private var changes: RecentLog<PanelChange>
    private var performed: RecentLog<PanelScript.Entry>
    /// The latest output changes (at most `recordCapacity`), in time order.
    public var timeline: [PanelChange] { changes.entries }
    /// The latest actions performed (at most `recordCapacity`), in time order.
    public var actions: [PanelScript.Entry] { performed.entries }
    /// Entries dropped from `timeline` and `actions` to stay within the capacity.
    public var droppedRecords: (changes: Int, actions: Int) { (changes.droppedCount, performed.droppedCount) }
    private var pending: [PanelScript.Entry] = []
    private let readiness: EventLoop

    public init(
        pins: PinMap = .standard, timing: PanelTiming = .standard, label: String = "simulated-panel",
        recordCapacity: Int = SimulatedPanel.defaultRecordCapacity
    ) throws(PanelError) {
        changes = RecentLog(capacity: recordCapacity)
        performed = RecentLog(capacity: recordCapacity)
        let chip = SimulatedChip(label: label)
        self.chip = chip
        panel = try Panel(chip: chip, pins: pins, timing: timing)
        do {
            readiness = try EventLoop()
            for fd in panel.descriptors { try readiness.register(fd) }
        } catch {
            throw .lineFailed(offset: pins.goButton, error)
        }
        panel.onOutputChange = { [unowned self] output, on, atMs in
            self.changes.append(PanelChange(atMs: atMs, output: output, on: on))
        }
    }

    deinit { readiness.close() }

    // MARK: Hands

    /// Does `action` at `nowMs`: grounds GO, or closes/opens a key's contact between its row and column.
    /// The panel hears of it through its descriptors, like a real edge.
    public func perform(_ action: PanelAction, nowMs: Int64) {
        chip.nowMs = nowMs
        performed.append(PanelScript.Entry(atMs: nowMs, action: action))
        let pins = panel.pins
        switch action {
        case .goDown: chip.setGrounded(pins.goButton, true)
        case .goUp: chip.setGrounded(pins.goButton, false)
        case .keyDown(let key), .keyUp(let key):
            let (r, c) = key.position
            let closed = if case .keyDown = action { true } else { false }
            chip.setContact(pins.keypadRows[r], pins.keypadColumns[c], closed: closed)
        }
    }

    /// Queues `script`'s actions, its t=0 at `startMs`.
    public func schedule(_ script: PanelScript, startMs: Int64) {
        pending += script.entries.map { PanelScript.Entry(atMs: $0.atMs + startMs, action: $0.action) }
        pending = PanelScript(entries: pending).entries
    }

    /// Queues the presses of a `press` request, each `afterMs` from `startMs`. False, and nothing queued, when
    /// one names no button of the panel.
    public func schedule(_ presses: [Press], startMs: Int64) -> Bool {
        var entries: [PanelScript.Entry] = []
        for press in presses {
            guard let tap = PanelScript.Tap(button: press.button) else { return false }
            entries += PanelScript.entries(tap, atMs: press.afterMs)
        }
        schedule(PanelScript(entries: entries), startMs: startMs)
        return true
    }

    /// The time of the next scripted action, if any.
    public var nextActionMs: Int64? { pending.first?.atMs }

    // MARK: Event-loop contract

    public var descriptors: [FileDescriptor] { panel.descriptors }

    public func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [PanelEvent] {
        chip.nowMs = nowMs
        return panel.onReadable(fd, nowMs: nowMs)
    }

    /// The panel's own deadline or the next scripted action, whichever is first.
    public var nextDeadlineMs: Int64? { EventLoop.earliest([panel.nextDeadlineMs, nextActionMs]) }

    /// Performs the scripted actions that are due (their edges then make descriptors readable), and runs
    /// the panel's deadline work.
    public func onDeadline(nowMs: Int64) -> [PanelEvent] {
        chip.nowMs = nowMs
        while let next = pending.first, next.atMs <= nowMs {
            pending.removeFirst()
            perform(next.action, nowMs: nowMs)
        }
        return panel.onDeadline(nowMs: nowMs)
    }

    // MARK: Virtual time

    /// Runs the panel from `fromMs` to `untilMs` on a virtual clock that jumps from deadline to deadline,
    /// handing readable descriptors to the panel at each instant (checked for real with a zero-timeout
    /// `epoll_wait`). Returns the panel's events with their times.
    public func run(fromMs: Int64, untilMs: Int64) -> [TimedPanelEvent] {
        var events: [TimedPanelEvent] = []
        var now = fromMs
        while true {
            events += drainReadable(nowMs: now)
            guard let next = nextDeadlineMs, next <= untilMs else { break }
            now = max(now, next)
            events += onDeadline(nowMs: now).map { TimedPanelEvent(atMs: now, event: $0) }
        }
        return events
    }

    /// Hands every readable descriptor to the panel at `nowMs` until none is readable.
    public func drainReadable(nowMs: Int64) -> [TimedPanelEvent] {
        var events: [TimedPanelEvent] = []
        for _ in 0..<16 {
            let ready: [ReadyDescriptor]
            do { ready = try readiness.wait(timeoutMs: 0) } catch {
                events.append(TimedPanelEvent(atMs: nowMs, event: .fault(.lineFailed(offset: 0, error))))
                break
            }
            if ready.isEmpty { break }
            for r in ready {
                events += onReadable(r.descriptor, nowMs: nowMs).map { TimedPanelEvent(atMs: nowMs, event: $0) }
            }
        }
        return events
    }
}

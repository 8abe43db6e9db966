import Platform

/// The GO button: a switch to ground on a pulled-up input (DESIGN §2), debounced, with a long press.
/// Edges only wake it; the level read once the line has been quiet for the debounce time is the truth, so a
/// burst of bounces gives one press. Between edges and deadlines nothing is read. A whole press that came and
/// went while the loop was busy elsewhere (both edges read together, the level high again) is still a press:
/// the kernel's timestamps show the line held low for longer than the debounce time.
final class GoButton {
    let line: any GPIOInput
    private let timing: PanelTiming
    private(set) var isPressed: Bool
    /// First edge since the level was last accepted; the press "began" there.
    private var burstStartMs: Int64?
    private var settleDeadlineMs: Int64?
    private var pressStartMs: Int64 = 0
    private var longPressSent = false
    /// The timestamp of the last falling edge not yet followed by a rising one (kernel ns).
    private var lowSinceNs: UInt64?
    /// Presses seen only in the edges' timestamps, whole (down and up) before their level was read; each
    /// says whether it was held for a long press.
    private var unseenPresses: [Bool] = []

    init(line: any GPIOInput, timing: PanelTiming) throws(PanelError) {
        self.line = line
        self.timing = timing
        // A button already held at start-up is not a press: it must be released first.
        isPressed = try !line.read()
        longPressSent = isPressed
    }

    var nextDeadlineMs: Int64? {
        var deadline = settleDeadlineMs
        if isPressed && !longPressSent && settleDeadlineMs == nil {
            let long = pressStartMs + timing.longPressMs
            deadline = min(deadline ?? long, long)
        }
        return deadline
    }

    func onReadable(nowMs: Int64) throws(PanelError) {
        let edges = try line.readEvents()
        guard !edges.isEmpty else { return }
        for edge in edges {
            if !edge.rising {
                lowSinceNs = edge.timestampNs
            } else if let since = lowSinceNs {
                lowSinceNs = nil
                let heldMs = Int64((edge.timestampNs &- since) / 1_000_000)
                // Held past the debounce time and never accepted as down: a press the loop did not see.
                if !isPressed && heldMs >= timing.debounceMs {
                    unseenPresses.append(heldMs >= timing.longPressMs)
                }
            }
        }
        if burstStartMs == nil { burstStartMs = nowMs }
        settleDeadlineMs = nowMs + timing.debounceMs
    }

    func onDeadline(nowMs: Int64) throws(PanelError) -> [PanelEvent] {
        var events: [PanelEvent] = []
        if let settle = settleDeadlineMs, settle <= nowMs {
            settleDeadlineMs = nil
            let pressed = try !line.read()
            let started = burstStartMs ?? nowMs
            burstStartMs = nil
            for long in unseenPresses {
                events.append(.goPressed)
                if long { events.append(.goLongPress) }
                events.append(.goReleased(wasLongPress: long))
            }
            unseenPresses = []
            if pressed != isPressed {
                isPressed = pressed
                if pressed {
                    pressStartMs = started
                    longPressSent = false
                    events.append(.goPressed)
                } else {
                    events.append(.goReleased(wasLongPress: longPressSent))
                    longPressSent = false
                }
            }
        }
        if isPressed && !longPressSent && settleDeadlineMs == nil && pressStartMs + timing.longPressMs <= nowMs {
            longPressSent = true
            events.append(.goLongPress)
        }
        return events
    }
}

import Platform

/// The GO button: a switch to ground on a pulled-up input (DESIGN §2), debounced, with a long press.
/// Edges only wake it; the level read once the line has been quiet for the debounce time is the truth, so a
/// burst of bounces gives one press. Between edges and deadlines nothing is read.
final class GoButton {
    let line: any GPIOInput
    private let timing: PanelTiming
    private(set) var isPressed: Bool
    /// First edge since the level was last accepted; the press "began" there.
    private var burstStartMs: Int64?
    private var settleDeadlineMs: Int64?
    private var pressStartMs: Int64 = 0
    private var longPressSent = false

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

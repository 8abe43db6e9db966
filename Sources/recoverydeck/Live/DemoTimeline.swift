import ControlProtocol

/// The demo's running commentary: each key, lamp change, sound and phase of the live morning, one line
/// each, timed in session seconds from the start. It reads the daemon's `watch` stream, whose packets carry
/// the daemon's clock (`session_ms`).
final class DemoTimeline {
    let context: Context
    let startMs: Int64
    private(set) var finished = false
    private var lastPhase = "idle"
    private var lastDisplay: String?
    private var lastProgressLineMs: Int64 = .min
    private var saved = false

    init(context: Context, startMs: Int64) {
        self.context = context
        self.startMs = startMs
    }

    func record(_ event: ControlEvent) {
        let ms = event.sessionMs
        switch event {
        case .input(_, let button):
            switch button {
            case "go": line("GO pressed", at: ms)
            case "go-long": line("GO held 2 s", at: ms)
            case let key: line("key \(key)", at: ms)
            }
        case .sound(_, let name): line("buzzer  \(name)", at: ms)
        case .say(_, let text): line("says    \(text)", at: ms)
        case .saved(_, let date, let rawRR):
            saved = true
            line("saved   \(date): one transaction, \(rawRR) RR kept", at: ms)
        case .snapshot(let s): snapshot(s, at: ms)
        }
    }

    private func snapshot(_ s: ControlSnapshot, at ms: Int64) {
        if s.display != lastDisplay {
            lastDisplay = s.display
            line("lamps   \(s.display)", at: ms)
        }
        let phase = s.phase
        if phase != lastPhase {
            lastPhase = phase
            line("phase   \(s.title)", at: ms)
            lastProgressLineMs = ms
        } else if let bpm = s.bpm, ms - lastProgressLineMs >= 10_000 {
            lastProgressLineMs = ms
            let rr = s.degraded ? "HR only" : (s.rrOK ? "RR OK" : "no RR")
            var parts = ["\(bpm) bpm", rr]
            if let p = s.progress { parts.append("\(Int(p * 100)) % of the protocol") }
            if let beats = s.acceptedBeats { parts.append("\(beats) clean beats") }
            line("        " + parts.joined(separator: ", "), at: ms)
        }
        if saved && phase == "readout" { finished = true }
        if phase == "showingFault" { finished = true }
    }

    private func line(_ text: String, at ms: Int64) {
        let elapsed = ms - startMs
        let seconds = "\(elapsed / 1000).\(elapsed % 1000 / 100)"
        context.out(String(repeating: " ", count: max(0, 6 - seconds.count)) + seconds + " s  " + text)
    }
}

import Appliance
import RecoveryCore

/// The demo's running commentary: each key, lamp change, sound and phase of the live morning, one line
/// each, timed in session seconds from the start.
final class DemoTimeline {
    let context: Context
    let daemon: Daemon
    let startMs: Int64
    private(set) var finished = false
    private var lastPhase = MorningSession.Phase.idle
    private var lastProgressLineMs: Int64 = .min
    private var saved = false

    init(context: Context, daemon: Daemon) {
        self.context = context
        self.daemon = daemon
        self.startMs = daemon.clock.monotonicMs()
    }

    func record(_ event: DaemonEvent) {
        switch event {
        case .input(.key(let key)): line("key \(key.label)")
        case .input(.go(let press)): line(press == .long ? "GO held 2 s" : "GO pressed")
        case .display(let display): line("lamps   \(display)")
        case .sound(let sound): line("buzzer  \(sound.pattern.name)")
        case .said(let sentence): line("says    \(sentence)")
        case .saved(let morning, _):
            saved = true
            line("saved   \(morning.date.iso): one transaction, \(morning.rawRR.count) RR kept")
        case .snapshot(let s):
            if s.phase != lastPhase {
                lastPhase = s.phase
                line("phase   \(s.title)")
                lastProgressLineMs = daemon.clock.monotonicMs()
            } else if s.bpm != nil, daemon.clock.monotonicMs() - lastProgressLineMs >= 10_000 {
                lastProgressLineMs = daemon.clock.monotonicMs()
                var parts = ["\(s.bpm!) bpm", s.degraded ? "HR only" : (s.rrOK ? "RR OK" : "no RR")]
                if let p = s.overallProgress { parts.append("\(Int(p * 100)) % of the protocol") }
                if let beats = s.acceptedBeats { parts.append("\(beats) clean beats") }
                line("        " + parts.joined(separator: ", "))
            }
            if saved && s.phase == .readout { finished = true }
            if s.phase == .showingFault { finished = true }
        }
    }

    private func line(_ text: String) {
        let ms = daemon.clock.monotonicMs() - startMs
        let seconds = "\(ms / 1000).\(ms % 1000 / 100)"
        context.out(String(repeating: " ", count: max(0, 6 - seconds.count)) + seconds + " s  " + text)
    }
}

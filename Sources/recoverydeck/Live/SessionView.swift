import ControlProtocol
import Store

/// How a live session looks in a terminal (spec §9.2: phase title, countdown and progress, live BPM,
/// "RR OK"): one line drawn from a `watch` snapshot.
struct SessionView {
    static let barWidth = 24

    /// "Measuring rMSSD: lie still  [#######.................]  31%  58 bpm  RR OK  1:02 left".
    static func line(_ snapshot: ControlSnapshot) -> String {
        var parts: [String] = [snapshot.title]
        if let progress = snapshot.progress {
            let filled = Int((progress * Double(barWidth)).rounded(.down))
            let bar =
                String(repeating: "#", count: max(0, min(barWidth, filled)))
                + String(repeating: ".", count: max(0, barWidth - filled))
            parts.append("[\(bar)] \(Int((progress * 100).rounded(.down)))%")
        }
        if let bpm = snapshot.bpm { parts.append("\(bpm) bpm") }
        if isMeasuring(snapshot.phase) {
            if snapshot.degraded {
                parts.append("HR only")
            } else {
                parts.append(snapshot.rrOK ? "RR OK" : "no RR")
            }
        }
        if let beats = snapshot.acceptedBeats, let seconds = snapshot.acceptedSeconds {
            parts.append("\(beats) beats / \(Int(seconds)) s of RR")
        }
        if let remaining = snapshot.remainingMs {
            let seconds = (remaining + 999) / 1000
            parts.append("\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60) left")
        }
        if let fault = snapshot.faultSentence { parts.append(fault) }
        return parts.joined(separator: "  ")
    }

    static func isMeasuring(_ phase: String) -> Bool {
        ["settleLying", "captureRMSSD", "captureLyingHR", "promptStand", "captureStanding"].contains(phase)
    }

    /// The lamps as words: "blue: fast blink" ("dark" when none is lit).
    static func lamps(_ snapshot: ControlSnapshot) -> String {
        var lit: [String] = []
        for lamp in ["red", "yellow", "green", "blue"] {
            let pattern = snapshot.pattern(of: lamp)
            if pattern != "off" { lit.append("\(lamp): \(pattern)") }
        }
        return lit.isEmpty ? "dark" : lit.joined(separator: ", ")
    }
}

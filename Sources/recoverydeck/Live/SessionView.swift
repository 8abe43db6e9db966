import JSON
import Store

/// How a live session looks in a terminal (spec §9.2: phase title, countdown and progress, live BPM,
/// "RR OK"): one line drawn from a `watch` snapshot.
struct SessionView {
    static let barWidth = 24

    /// "Measuring rMSSD: lie still  [#######.................]  31%  58 bpm  RR OK  1:02 left".
    static func line(_ snapshot: JSONValue) -> String {
        var parts: [String] = [snapshot["title"]?.stringValue ?? "?"]
        if let progress = snapshot["progress"]?.doubleValue {
            let filled = Int((progress * Double(barWidth)).rounded(.down))
            let bar =
                String(repeating: "#", count: max(0, min(barWidth, filled)))
                + String(repeating: ".", count: max(0, barWidth - filled))
            parts.append("[\(bar)] \(Int((progress * 100).rounded(.down)))%")
        }
        if let bpm = snapshot["bpm"]?.int64Value { parts.append("\(bpm) bpm") }
        if snapshot["phase"]?.stringValue.map(isMeasuring) == true {
            if snapshot["degraded"]?.boolValue == true {
                parts.append("HR only")
            } else {
                parts.append(snapshot["rr_ok"]?.boolValue == true ? "RR OK" : "no RR")
            }
        }
        if let beats = snapshot["accepted_beats"]?.int64Value, let seconds = snapshot["accepted_seconds"]?.doubleValue {
            parts.append("\(beats) beats / \(Int(seconds)) s of RR")
        }
        if let remaining = snapshot["remaining_ms"]?.int64Value {
            let seconds = (remaining + 999) / 1000
            parts.append("\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60) left")
        }
        if let fault = snapshot["fault_sentence"]?.stringValue { parts.append(fault) }
        return parts.joined(separator: "  ")
    }

    static func isMeasuring(_ phase: String) -> Bool {
        ["settleLying", "captureRMSSD", "captureLyingHR", "promptStand", "captureStanding"].contains(phase)
    }

    /// The lamps as words: "blue: fast blink" ("dark" when none is lit).
    static func lamps(_ snapshot: JSONValue) -> String {
        var lit: [String] = []
        for lamp in ["red", "yellow", "green", "blue"] {
            if let pattern = snapshot["lamps"]?[lamp]?.stringValue, pattern != "off" {
                lit.append("\(lamp): \(pattern)")
            }
        }
        return lit.isEmpty ? "dark" : lit.joined(separator: ", ")
    }
}

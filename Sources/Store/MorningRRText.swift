import RecoveryCore

/// One morning's raw RR as a plain text file: one interval in ms a line, the way Elite HRV exports raw RR and
/// Kubios reads a text RR file, with `#` comment lines first (Kubios and the box's own `rr analyze` and
/// `import rr` skip them). The values are the strap's, unfiltered (`rr_raw * 1000 / 1024`, spec §4.1, written
/// exactly), from the settle's start to the stand cue: the lying part of the morning, so a reader's own
/// analysis is not mixed with standing. The header says the day, the quality verdict, the rMSSD and how it was
/// taken, the artifact rule, which values form the box's rMSSD window, and which beats in that window the rule
/// rejected (the box drops such beats and breaks the pair; it never corrects or interpolates them).
public enum MorningRRText {
    /// The lying part's intervals of a measurement, in order.
    public static func lyingIntervals(_ m: MorningMeasurement) -> [RRInterval] {
        let end = m.marks.standStartMs ?? Int64.max
        return m.rawRR.filter { $0.receivedAtMs >= m.marks.settleStartMs && $0.receivedAtMs < end }
    }

    /// nil when the morning keeps no raw RR (a day imported from a CSV, or a session recorded in HR-only mode).
    /// - Parameter startTime: the local time the session started (the caller knows the time zone); nil for an
    ///   imported morning, whose time of day is not known.
    public static func text(_ m: MorningMeasurement, rule: ArtifactRule, startTime: MinuteOfDay?) -> String? {
        let lying = lyingIntervals(m)
        guard !lying.isEmpty else { return nil }
        let window = lying.indices.filter {
            lying[$0].receivedAtMs >= m.marks.captureStartMs && lying[$0].receivedAtMs <= m.marks.captureEndMs
        }
        var rejected: [Int] = []
        var screen = ArtifactScreen(rule: rule)
        var judged = 0
        let take = { (_: Double, reason: ArtifactTally.Reason?, _: Bool) in
            if reason != nil { rejected.append(window[judged] + 1) }
            judged += 1
        }
        for i in window { screen.push(lying[i].milliseconds, gapBefore: false, emit: take) }
        screen.flush(emit: take)

        let started = startTime.map { ", started \($0)" } ?? ""
        var header = [
            "RecoveryDeck morning \(m.date.iso)\(started): RR intervals in ms, one a line, as the strap "
                + "sent them, from the settle to the stand cue (\(lying.count) beats)"
        ]
        let quality = m.quality.code
        if let hrv = m.hrv, let rmssd = hrv.rmssdMs {
            let pairs = hrv.pairs.map { " over \($0) adjacent pairs" } ?? ""
            header.append(
                "quality: \(quality); rMSSD \(DayTable.number((rmssd * 10).rounded() / 10)) ms\(pairs) "
                    + "(\(hrv.rmssdMethod.rawValue)), \(hrv.accepted) beats accepted, \(hrv.rejected) rejected")
        } else {
            header.append("quality: \(quality); no rMSSD")
        }
        header.append("artifact rule: \(rule.rawValue)")
        if let first = window.first, let last = window.last {
            header.append("rMSSD window: values \(first + 1)-\(last + 1)")
        }
        header.append(
            "rejected by the rule in that window (value numbers; dropped, not corrected): "
                + (rejected.isEmpty ? "none" : rejected.map(String.init).joined(separator: " ")))
        return header.map { "# " + $0 + "\n" }.joined() + lying.map { "\($0.milliseconds)\n" }.joined()
    }
}

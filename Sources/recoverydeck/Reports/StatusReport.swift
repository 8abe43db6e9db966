import JSON
import Insights
import RecoveryCore
import Store

/// Today at a glance: the check-in, the measurement, each channel's light and words, the composite,
/// and how far the baselines have come (spec §5.4, DESIGN §1 step 6).
struct StatusReport {
    let today: LocalDate
    let record: DayRecord
    let readout: Readout
    let edges: LightEdges
    let lnWeek: LnRMSSDWeek
    let displayName: String?
    /// Today's "Not like you" reading; nil when nothing is stored.
    let notLikeYou: NotLikeYou.Morning?
    /// Measured mornings of the baseline window (the last `Baselines.normDays` days) not judged by the current rule
    /// at its current version: judged before judgements were recorded, imported, or without raw RR to re-judge.
    /// Said, so the baselines never mix judgements silently (docs/artifacts.md, "How each morning was judged").
    let judgedOtherwise: Int
    let judgedMornings: Int

    init(store: Store, today: LocalDate) throws(StoreError) {
        let days = try store.days(from: today.adding(days: -Baselines.normDays), through: today)
        self.today = today
        self.record = days.last { $0.date == today } ?? DayRecord(date: today)
        let settings = try store.settings()
        self.edges = settings.bandEdges
        self.readout = Baselines.readout(days: days, today: today, edges: edges)
        self.lnWeek = LnRMSSDWeek(days: days, through: today)
        self.displayName = settings.displayName
        self.notLikeYou = NotLikeYouFigures.reading(try store.allDays(), today: today)
        let rule = settings.artifactRule
        let measured = days.compactMap { $0.measurement?.hrv }.filter { $0.rmssdMs != nil }
        self.judgedMornings = measured.count
        self.judgedOtherwise = measured.filter { $0.judgement?.rule != rule || $0.judgement?.version != rule.version }
            .count
    }

    var text: String {
        var lines: [String] = []
        lines.append(displayName.map { $0.isEmpty ? "Good morning." : "Good morning, \($0)." } ?? "Good morning.")
        lines.append("Today: \(ReportWording.weekday(today)) \(today.iso).")
        lines.append("")
        if let q = record.questionnaire {
            let scores = SubjectiveItem.allCases.map { "\($0.label) \(q.scores[$0].value)" }.joined(separator: ", ")
            var line = "Check-in      done: \(scores) (mean \(Formatting.fixed(q.scores.mean, digits: 1)))"
            if !q.habits.isEmpty { line += "; habits: " + q.habits.joined(separator: ", ") }
            lines.append(line)
        } else {
            lines.append("Check-in      not yet")
        }
        lines += measurementLines
        lines.append("")
        let widths = [14, 19, 8, 8, 26]
        lines.append(ReportWording.row(["channel", "light", "today", "7-day", "60-day norm", "words"], widths))
        for channel in readout.channels {
            var norm = ReportWording.dash
            if let mean = channel.normMean, let sd = channel.normSD {
                norm = ReportWording.value(mean, channel.channel) + " ± " + ReportWording.value(sd, channel.channel)
                if let z = channel.z { norm += " (z \(Formatting.fixed(z, digits: 2)))" }
            }
            lines.append(
                ReportWording.row(
                    [
                        channel.channel.label, ReportWording.light(channel.state),
                        ReportWording.value(channel.todayValue, channel.channel),
                        ReportWording.value(channel.acute, channel.channel),
                        norm, channel.words,
                    ], widths))
        }
        lines.append("")
        lines.append("Composite     \(ReportWording.composite(readout.composite)) (\(Baselines.compositeLabel))")
        lines.append("Baselines     \(baselineWords)")
        lines.append("Band edges    yellow / red beyond \(ReadoutFigures.words(edges))")
        lines += ReadoutFigures.lines(lnWeek)
        lines += Insights.deviations(readout: readout).map { "T0            " + $0.sentence }
        if let line = NotLikeYouFigures.line(notLikeYou) { lines.append(line) }
        return lines.joined(separator: "\n") + "\n"
    }

    private var measurementLines: [String] {
        guard let m = record.measurement else { return ["Measurement   not yet"] }
        // An imported morning has no time of day of its own (the import knows the date only).
        var first =
            record.imported
            ? "Measurement   imported, quality \(m.quality.code)"
            : "Measurement   \(ReportWording.clock(m.startedAtEpoch)), quality \(m.quality.code)"
        if let rmssd = m.hrv?.rmssdMs { first += ": rMSSD \(Formatting.fixed(rmssd, digits: 1)) ms" }
        if let hr = m.meanHRBpm { first += ", mean HR \(Formatting.fixed(hr, digits: 0)) bpm" }
        // Over 5 % of beats rejected: counted, but said (docs/artifacts.md).
        if m.quality == .ok, let note = m.hrv?.fairNote { first += "; " + note }
        var lines = [first]
        // Why beats were rejected, and by which rule (docs/artifacts.md, "Provenance").
        if let judged = m.hrv?.judgement {
            let why =
                judged.rejected == 0 ? "no beat rejected" : "\(judged.rejected) beats rejected: \(judged.reasonsText)"
            lines.append("              \(why) (\(judged.rule.rawValue) rule, version \(judged.version))")
        }
        if case .fail(let reason) = m.quality { lines.append("              " + reason.sentence) }
        if judgedOtherwise > 0 {
            lines.append(
                "              \(judgedOtherwise) of the \(judgedMornings) mornings with rMSSD in the last "
                    + "\(Baselines.normDays) days were judged by another rule or detector version, or before this "
                    + "was recorded (imported, or no raw RR to judge again)")
        }
        switch m.orthostaticStatus {
        case .completed:
            if let o = m.orthostatic {
                let bpm = { (value: Double) in Formatting.fixed(value, digits: 0) }
                lines.append(
                    "Orthostatic   lying \(bpm(o.avgLyingHR)) bpm, standing \(bpm(o.avgStandingHR)) bpm, peak "
                        + "\(bpm(o.peakStandingHR)) bpm; gap avg \(bpm(o.gapAvg)), gap peak \(bpm(o.gapPeak)) bpm")
            }
        case .skipped: lines.append("Orthostatic   skipped")
        case .failed: lines.append("Orthostatic   not measured")
        }
        return lines
    }

    var baselineWords: String {
        let n = readout.completeDaysInNorm
        if readout.isBuilding {
            return "building: \(n) of \(Baselines.buildingCompleteDays) complete days"
        }
        return "ready: \(n) complete days in the last \(Baselines.normDays)"
    }

    var json: JSONValue {
        let channels: [JSONValue] = readout.channels.map { c in
            let state: String
            switch c.state {
            case .lit: state = "lit"
            case .fallback: state = "fallback"
            case .building: state = "building"
            case .missing: state = "missing"
            }
            return .object([
                ("channel", .string(c.channel.rawValue)), ("state", .string(state)),
                ("light", JSONValue(c.light?.rawValue)),
                ("words", .string(c.words)), ("concerning", .bool(c.isConcerning)), ("today", JSONValue(c.todayValue)),
                ("acute", JSONValue(c.acute)), ("acuteCount", JSONValue(c.acuteCount)),
                ("normMean", JSONValue(c.normMean)),
                ("normSD", JSONValue(c.normSD)), ("normCount", JSONValue(c.normCount)), ("z", JSONValue(c.z)),
            ])
        }
        let composite: JSONValue
        switch readout.composite {
        case .lit(let light): composite = .string(light.rawValue)
        case .building: composite = .string("building")
        case .missing: composite = .null
        }
        return .object([
            ("date", .string(today.iso)),
            ("day", ExportDocument.json(record, full: false)),
            ("complete", .bool(record.isComplete)),
            ("channels", .array(channels)),
            ("composite", composite),
            ("compositeLabel", .string(Baselines.compositeLabel)),
            ("building", .bool(readout.isBuilding)),
            ("completeDaysInNorm", JSONValue(readout.completeDaysInNorm)),
            ("completeDaysNeeded", JSONValue(Baselines.buildingCompleteDays)),
            ("bandEdges", ReadoutFigures.json(edges)),
            ("lnRMSSDWeek", ReadoutFigures.json(lnWeek)),
            ("notLikeYou", notLikeYou.map { NotLikeYouFigures.json($0, on: today) } ?? .null),
            ("judgedOtherwise", .integer(Int64(judgedOtherwise))),
        ])
    }
}

import JSON
import Insights
import RecoveryCore
import Store

/// The last N calendar days, one line each, oldest first, ending today. A day with nothing stored is
/// shown as such (missing stays missing); the light is that day's composite as the box showed it.
struct HistoryReport {
    struct Line {
        let date: LocalDate
        let record: DayRecord?
        let composite: Readout.Composite
        let lnWeek: LnRMSSDWeek
        let notLikeYou: NotLikeYou.Morning?
        /// The episode this day belongs to, looking back (its run included); nil outside one.
        let episode: NotLikeYou.Episode?
    }

    let lines: [Line]
    /// The shown days whose stored rMSSD the artifact rule's recomputation moved, by day (docs/artifacts.md).
    let recomputed: [String: RecomputedDay]

    init(store: Store, today: LocalDate, days count: Int) throws(StoreError) {
        let first = today.adding(days: -(count - 1))
        let stored = try store.days(from: first.adding(days: -Baselines.normDays), through: today)
        var byDate: [LocalDate: DayRecord] = [:]
        for day in stored { byDate[day.date] = day }
        let edges = try store.lightEdges()
        let shown = first.iso...today.iso
        recomputed = Dictionary(
            try store.recomputedDays().filter { shown.contains($0.day) }.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
        var detector: [LocalDate: NotLikeYou.Morning] = [:]
        let run = NotLikeYou.run(days: try store.allDays(), through: today)
        for (date, morning) in run { detector[date] = morning }
        let episodes = NotLikeYouFigures.episodeDays(run)
        lines = (0..<count).map { offset in
            let date = first.adding(days: offset)
            let window = stored.filter { $0.date <= date && $0.date >= date.adding(days: -Baselines.normDays) }
            let record = byDate[date]
            let composite =
                record == nil ? .missing : Baselines.readout(days: window, today: date, edges: edges).composite
            return Line(
                date: date, record: record, composite: composite, lnWeek: LnRMSSDWeek(days: window, through: date),
                notLikeYou: detector[date], episode: episodes[date])
        }
    }

    static let header = [
        "date", "check-in", "rMSSD", "lying HR", "gap peak", "gap avg", "quality", "orthostatic", "light", "from",
    ]
    static let widths = [12, 10, 8, 10, 10, 9, 20, 13, 9]

    var text: String {
        var out = [ReportWording.row(HistoryReport.header, HistoryReport.widths)]
        for line in lines {
            guard let record = line.record else {
                out.append(ReportWording.row([line.date.iso, "no record"], HistoryReport.widths))
                continue
            }
            let m = record.measurement
            out.append(
                ReportWording.row(
                    [
                        line.date.iso,
                        record.questionnaire.map { Formatting.fixed($0.scores.mean, digits: 1) } ?? ReportWording.dash,
                        ReportWording.value(m?.hrv?.rmssdMs, .rmssd),
                        ReportWording.value(m?.orthostatic?.avgLyingHR ?? Channel.lyingHR.value(in: record), .lyingHR),
                        ReportWording.value(m?.orthostatic?.gapPeak, .gapPeak),
                        ReportWording.value(m?.orthostatic?.gapAvg, .gapAvg),
                        m.map { m in
                            guard m.quality == .ok, let hrv = m.hrv, hrv.isFair else { return m.quality.code }
                            return "ok, fair \(hrv.rejectedShareText)"
                        } ?? ReportWording.dash,
                        m?.orthostaticStatus.rawValue ?? ReportWording.dash, ReportWording.composite(line.composite),
                        record.imported ? "import" : "box",
                    ], HistoryReport.widths)
                    + (line.episode != nil ? "  " + NotLikeYouFigures.mark : ""))
        }
        if let marked = lines.last(where: { $0.episode != nil }), let e = marked.episode {
            out.append("")
            out.append("\(NotLikeYouFigures.mark) (\(marked.date.iso), \(e.tier.name)): \(e.sentence)")
        }
        let moved = lines.compactMap { recomputed[$0.date.iso] }
        if !moved.isEmpty {
            out.append("")
            out.append("Recomputed from their raw RR when the artifact rule changed (the values above are the new ones):")
            for day in moved { out.append("  " + Self.sentence(day)) }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// "2026-11-20  rMSSD 41.2 → 44.9 ms (+9.0 %), 14 → 2 beats rejected (pattern rule)".
    static func sentence(_ day: RecomputedDay) -> String {
        var rmssd = "rMSSD " + (day.beforeRMSSDMs.map { Formatting.fixed($0, digits: 1) } ?? "–") + " → "
            + (day.afterRMSSDMs.map { Formatting.fixed($0, digits: 1) } ?? "–") + " ms"
        if let before = day.beforeRMSSDMs, let after = day.afterRMSSDMs, before > 0 {
            let change = (after / before - 1) * 100
            rmssd += " (" + (change >= 0 ? "+" : "") + Formatting.fixed(change, digits: 1) + " %)"
        }
        return "\(day.day)  \(rmssd), \(day.beforeRejected) → \(day.afterRejected) beats rejected (\(day.rule) rule)"
    }

    static func json(_ day: RecomputedDay?) -> JSONValue {
        guard let day else { return .null }
        return .object([
            ("rule", .string(day.rule)), ("beforeRmssdMs", JSONValue(day.beforeRMSSDMs)),
            ("afterRmssdMs", JSONValue(day.afterRMSSDMs)), ("beforeRejected", .integer(Int64(day.beforeRejected))),
            ("afterRejected", .integer(Int64(day.afterRejected))),
        ])
    }

    var json: JSONValue {
        .object([
            (
                "days",
                .array(
                    lines.map { line in
                        let m = line.record?.measurement
                        var composite: JSONValue = .null
                        switch line.composite {
                        case .lit(let light): composite = .string(light.rawValue)
                        case .building: composite = .string("building")
                        case .missing: composite = .null
                        }
                        return .object([
                            ("date", .string(line.date.iso)),
                            ("stored", .bool(line.record != nil)),
                            ("imported", .bool(line.record?.imported ?? false)),
                            ("subjectiveMean", JSONValue(line.record?.questionnaire?.scores.mean)),
                            ("rmssdMs", JSONValue(m?.hrv?.rmssdMs)),
                            // An imported resting HR without a standing test is the day's lying HR too.
                            (
                                "lyingHR",
                                JSONValue(m?.orthostatic?.avgLyingHR ?? line.record.flatMap(Channel.lyingHR.value))
                            ),
                            ("gapPeak", JSONValue(m?.orthostatic?.gapPeak)),
                            ("gapAvg", JSONValue(m?.orthostatic?.gapAvg)),
                            ("quality", JSONValue(m.map { $0.quality.code })),
                            // A morning that passed with over 5 % of its beats rejected is "fair".
                            ("grade", JSONValue(m.flatMap { $0.quality == .ok ? $0.hrv?.grade : nil })),
                            ("judgedBy", ExportDocument.judgementJSON(m?.hrv?.judgement)),
                            ("artifactRatio", JSONValue(m?.hrv?.artifactRatio)),
                            ("orthostaticStatus", JSONValue(m?.orthostaticStatus.rawValue)),
                            ("complete", .bool(line.record?.isComplete ?? false)),
                            ("light", composite),
                            // Derived: the ln rMSSD week ending this day (Plews 2012, 2014).
                            ("lnRMSSDWeek", ReadoutFigures.json(line.lnWeek)),
                            // The artifact rule's recomputation of this stored morning, when it moved it.
                            ("recomputed", Self.json(recomputed[line.date.iso])),
                            // Derived: the "Not like you" detector's reading of this day (docs/not-like-you.md).
                            ("notLikeYou", line.notLikeYou.map { NotLikeYouFigures.json($0, on: line.date) } ?? .null),
                            // Looking back: the day belongs to a flagged stretch (the run that raised it included).
                            ("notLikeYouMarked", .bool(line.episode != nil)),
                        ])
                    })
            )
        ])
    }
}

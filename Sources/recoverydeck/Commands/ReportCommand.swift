import Admin
import Insights
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeck report`: pictures over SSH. `--svg FILE` draws every series with its 7-day mean and
/// 60-day band; without it, a terminal sparkline per series.
struct ReportCommand: Command {
    static let name = "report"
    static let summary = "Chart the days: values, 7-day mean, 60-day band and lights (SVG)."
    static let synopsis: String? = "[--days N] [--svg FILE]"
    static let discussion = """
        For rMSSD, lying HR, gap peak, gap avg and the subjective mean: each day's value, the 7-day
        mean, the 60-day mean ± 1 SD band, and a row with each day's overall light (under the band
        edges in use, 'recoverydeck settings --band-edges'). Below them, ln rMSSD: each day's value,
        its 7-day mean where at least 3 of the 7 mornings were valid, and the 60-day mean ± the
        smallest worthwhile change (0.5 SD) as its band; a line and a band, not a light. A day without a
        value is a gap; lines are never drawn across it. Copy the file off the box with scp and open
        it in a browser, or render it: rsvg-convert report.svg -o report.png.

        Without --svg, prints one sparkline per series for the same days, one for the 7-day mean of
        ln rMSSD (a gap where fewer than 3 of the 7 mornings were valid), the last day's ln rMSSD
        figures, and a row marking with ◆ each day of a stretch of mornings unlike you (see status).
        """
    static let options: [OptionSpec] = [
        .value("days", "N", help: "How many days up to today (7 to 730; default 90)."),
        .value("svg", "FILE", help: "Write the chart to FILE as SVG (- for standard output)."),
    ]

    var days: Int
    var svg: String?

    init(_ parsed: ParsedArguments) throws(CommandError) {
        days = try parsed.integer("days", in: 7...730) ?? 90
        svg = parsed.value("svg")
        if let svg, svg.isEmpty { throw .usage("--svg needs a file name.") }
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        let last = context.today
        // The band of the first charted day looks 60 days further back.
        let from = LocalDate(dayNumber: last.dayNumber - days - Baselines.normDays)
        // One read: the chart's days, and every day for the not-like-you detector (its normal and past episodes).
        let stored = try store.allDays()
        let records = stored.filter { $0.date >= from && $0.date <= last }
        guard let svg else {
            for line in Sparkline.lines(days: records, through: last, count: days) { context.out(line) }
            let weeks = (0..<days).map { LnRMSSDWeek(days: records, through: last.adding(days: $0 - days + 1)) }
            let means = weeks.map { $0.isRollingMeanUnreliable ? nil : $0.rollingMean }
            let latest = means.last.flatMap { $0 }.map { Formatting.fixed($0, digits: 3) } ?? ReportWording.dash
            context.out("ln 7-day   \(Sparkline.render(means))  \(latest)")
            for line in ReadoutFigures.lines(weeks.last!) { context.out(line) }
            for line in NotLikeYouFigures.reportLines(stored, through: last, count: days) {
                context.out(line)
            }
            return
        }
        let flagged = NotLikeYouFigures.episodeDays(NotLikeYou.run(days: stored, through: last))
        let text = ReportChart.svg(
            days: records, through: last, count: days, edges: try store.lightEdges(), notLikeYou: Set(flagged.keys))
        if svg == "-" {
            context.outRaw(text)
            return
        }
        try Files.writeAtomically(text, to: svg)
        context.say("Wrote \(svg): \(days) days through \(last.iso).")
    }
}

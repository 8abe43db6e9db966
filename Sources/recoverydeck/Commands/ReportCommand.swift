import Admin
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
        mean, the 60-day mean ± 1 SD band, and a row with each day's overall light. A day without a
        value is a gap; lines are never drawn across it. Copy the file off the box with scp and open
        it in a browser, or render it: rsvg-convert report.svg -o report.png.

        Without --svg, prints one sparkline per series for the same days.
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
        let records = try store.days(from: from, through: last)
        guard let svg else {
            for line in Sparkline.lines(days: records, through: last, count: days) { context.out(line) }
            return
        }
        let text = ReportChart.svg(days: records, through: last, count: days)
        if svg == "-" {
            context.outRaw(text)
            return
        }
        try Files.writeAtomically(text, to: svg)
        context.say("Wrote \(svg): \(days) days through \(last.iso).")
    }
}

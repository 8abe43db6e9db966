import RecoveryCore
import Store

/// `recoverydeck history`: the last N days, one line each.
struct HistoryCommand: Command {
    static let name = "history"
    static let summary = "Show the last days, one line each, ending today."
    static let discussion = """
        Each line shows the day's check-in mean, rMSSD, lying HR, the orthostatic gaps, the capture's
        quality and the composite light as it stood that morning. Days with nothing stored say so:
        missing values are never filled in. With --json each day also carries its ln rMSSD week
        (lnRMSSDWeek: ln rMSSD, the 7-day mean and CV, the smallest worthwhile change, k of 7 valid).
        A day inside a stretch of mornings unlike you (lying HR above your own normal and ln rMSSD
        below it; see status) ends with "◆ not like you", and the latest stretch is said under the
        table; with --json each day carries notLikeYou (the detector's reading that morning) and
        notLikeYouMarked.

        Nothing is shown until today's check-in is in (the gate).
        """
    static let options: [OptionSpec] = [
        .value("days", "N", help: "How many days, 1 to 3650 (default 14)."),
        .flag("json", help: "Print the days as JSON."),
    ]

    let days: Int
    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        days = try parsed.integer("days", in: 1...3650) ?? 14
        json = parsed.flag("json")
    }

    func run(_ context: Context) throws {
        let store = try context.requireTodaysCheckin()
        let report = try HistoryReport(store: store, today: context.today, days: days)
        if json {
            context.out(report.json.serialized(pretty: true))
        } else {
            context.outRaw(report.text)
        }
    }
}

import JSON
import RecoveryCore
import Store

/// `recoverydeck lights --try A,B`: the stored history judged under the edges in use and under trial edges,
/// before the person moves them (RecoveryDeck spec §5.4: the 1.0 / 1.5 SD edges are to be tuned "after you
/// have months of data"). Changes nothing.
struct LightsCommand: Command {
    static let name = "lights"
    static let summary = "Back-test other band edges on the stored days; changes nothing."
    static let synopsis: String? = "--try A,B|CHANNEL=A,B [--days N] [--json]"
    static let discussion = """
        Judges each of the last N days as the box judged it that morning (its own 7-day mean against
        its own 60-day norm), once under the band edges in use and once under the edges tried, and
        prints for each channel and the composite how many days were green, yellow and red under
        each (unlit: building, too few recent mornings, or nothing stored), then every day whose light
        would change, from → to. --try takes what 'settings --band-edges' takes: A,B for every
        channel, CHANNEL=A,B for one (the others keep the edges in use), several joined by ;, or spec.
        Nothing is changed; 'recoverydeck settings --band-edges' applies edges.

        Nothing is shown until today's check-in is in (the gate).
        """
    static let options: [OptionSpec] = [
        .value("try", "A,B|CHANNEL=A,B|spec", help: "The edges to try, in SDs of the 60-day norm."),
        .value("days", "N", help: "How many days up to today, 1 to 3650 (default 60)."),
        .flag("json", help: "Print the counts and the changes as JSON."),
    ]

    let trial: String
    let days: Int
    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        guard let trial = parsed.value("try") else {
            throw .usage("--try A,B is needed: the edges to compare with the ones in use (the spec's are 1.0,1.5).")
        }
        if case .failure(let error) = LightEdges.spec.applying(trial) { throw .usage("--try: \(error)") }
        self.trial = trial
        days = try parsed.integer("days", in: 1...3650) ?? 60
        json = parsed.flag("json")
    }

    func run(_ context: Context) throws {
        let store = try context.requireTodaysCheckin()
        let current = try store.lightEdges()
        let trialEdges = try current.applying(trial).get()
        let today = context.today
        let records = try store.days(from: today.adding(days: -(days - 1 + Baselines.normDays)), through: today)
        let test = LightsBackTest(days: records, through: today, count: days, current: current, trial: trialEdges)
        if json {
            context.out(LightsCommand.json(test).serialized(pretty: true))
        } else {
            context.outRaw(LightsCommand.text(test, days: days))
        }
    }

    static func text(_ t: LightsBackTest, days: Int) -> String {
        var lines: [String] = []
        lines.append("Band edges in use: \(ReadoutFigures.words(t.current)); tried: \(ReadoutFigures.words(t.trial)).")
        lines.append(
            "The \(days) day\(days == 1 ? "" : "s") \(t.first.iso) to \(t.last.iso), each judged as that morning's "
                + "light. Nothing is changed.")
        lines.append("")
        let widths = [12, 7, 7, 5, 7, 7, 7, 5, 7]
        lines.append(ReportWording.row(["", "in use", "", "", "", "tried", "", "", "", ""], widths))
        lines.append(
            ReportWording.row(
                ["series", "green", "yellow", "red", "unlit", "green", "yellow", "red", "unlit", "changed"],
                widths))
        for series in LightsBackTest.Series.all {
            let a = t.currentCounts[series]!
            let b = t.trialCounts[series]!
            let changed = t.changes.filter { $0.series == series }.count
            lines.append(
                ReportWording.row(
                    [series.label]
                        + [a.green, a.yellow, a.red, a.unlit, b.green, b.yellow, b.red, b.unlit, changed]
                        .map(String.init), widths))
        }
        lines.append("")
        if t.changes.isEmpty {
            lines.append("No day's light would change.")
        } else {
            let dayCount = Set(t.changes.map(\.date)).count
            lines.append(
                "\(t.changes.count) light\(t.changes.count == 1 ? "" : "s") would change, on \(dayCount) "
                    + "day\(dayCount == 1 ? "" : "s"):")
            for c in t.changes {
                let change = "\(c.from.rawValue) → \(c.to.rawValue)"
                lines.append(ReportWording.row([c.date.iso, c.series.label, change], [12, 12]))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ t: LightsBackTest) -> JSONValue {
        let counts = { (c: LightsBackTest.Counts) -> JSONValue in
            .object([
                ("green", JSONValue(c.green)), ("yellow", JSONValue(c.yellow)), ("red", JSONValue(c.red)),
                ("unlit", JSONValue(c.unlit)),
            ])
        }
        return .object([
            ("first", .string(t.first.iso)),
            ("last", .string(t.last.iso)),
            ("current", ReadoutFigures.json(t.current)),
            ("trial", ReadoutFigures.json(t.trial)),
            (
                "series",
                .array(
                    LightsBackTest.Series.all.map { s in
                        .object([
                            ("series", .string(s.description)),
                            ("current", counts(t.currentCounts[s]!)),
                            ("trial", counts(t.trialCounts[s]!)),
                            ("changed", JSONValue(t.changes.filter { $0.series == s }.count)),
                        ])
                    })
            ),
            (
                "changes",
                .array(
                    t.changes.map { c in
                        .object([
                            ("date", .string(c.date.iso)), ("series", .string(c.series.description)),
                            ("from", .string(c.from.rawValue)), ("to", .string(c.to.rawValue)),
                        ])
                    })
            ),
        ])
    }
}

import JSON
import Admin
import RecoveryCore
import Store

/// `recoverydeck status`: today's check-in, measurement, lights and baseline progress.
struct StatusCommand: Command {
    static let name = "status"
    static let summary = "Show today: check-in, measurement, each channel's light and the composite."
    static let discussion = """
        Lights compare the 7-day mean of each channel (rMSSD, lying HR, gap peak, gap avg, subjective)
        with your own 60-day normal band: within 1 SD green, within 1.5 SD yellow, beyond red (the band
        edges; 'recoverydeck settings --band-edges' moves them). Until 14 complete days exist the
        baselines are building and only the subjective channel has an absolute light. The composite is
        the majority of the channel lights: a rough signal, not medical.

        Beside the lights: ln rMSSD, its 7-day mean and CV, the smallest worthwhile change (0.5 × the
        60-day SD of ln rMSSD) and how many of the last 7 mornings were valid; under 3 the 7-day mean
        is marked unreliable. These are figures, not another light.

        Not like you: when several mornings running have a lying HR above your own normal (the 60
        days before) and an ln rMSSD below it, a line says so with the mornings and the sizes, from
        the morning it is raised until a morning is back in your normal range; raised again within
        the week after, it goes on as the same stretch ("new today" only once). It is a
        fact about your numbers (T0), a pattern that often comes with illness, hard training or poor
        sleep; not a diagnosis. docs/not-like-you.md says how it was calibrated.

        Nothing is shown until today's check-in is in (the gate).
        """
    static let options: [OptionSpec] = [.flag("json", help: "Print the status as JSON.")]

    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        json = parsed.flag("json")
    }

    func run(_ context: Context) throws {
        let store = try context.requireTodaysCheckin()
        let report = try StatusReport(store: store, today: context.today)
        let experiment = try Experiments.running(store, on: context.today)
        let tonight = experiment.flatMap { Experiments.tonight($0, today: context.today) }
        if json {
            var doc = report.json
            if case .object(var members) = doc {
                members.append(
                    (
                        "experiment",
                        experiment.map { e in
                            .object([
                                ("habit", .string(e.habit)), ("tonight", JSONValue(tonight?.arm.rawValue)),
                                ("night", JSONValue(tonight?.morning)), ("nights", JSONValue(e.mornings)),
                            ])
                        } ?? .null
                    ))
                doc = .object(members)
            }
            context.out(doc.serialized(pretty: true))
        } else {
            context.outRaw(report.text)
            if let e = experiment {
                // T4: the evening before is when it matters (DESIGN §6).
                context.out(
                    "\nExperiment with \(e.habit): "
                        + (tonight.map {
                            "tonight, night \($0.morning) of \(e.mornings): \($0.arm.instruction(e.habit))."
                        }
                            ?? "today was its last morning; see 'recoverydeck experiment result'."))
            }
            let first = context.today.adding(days: -27)
            context.out("\nThe last four weeks (one mark a day; a gap is a day not measured):")
            let days = try store.days(from: first, through: context.today)
            for line in Sparkline.lines(days: days, through: context.today) {
                context.out(line)
            }
        }
    }
}

extension Context {
    /// The gate (spec §6.3): metrics, today's or past, wait for today's questionnaire.
    func requireTodaysCheckin(_ store: Store) throws {
        let record = try store.day(today)
        guard Gate.canAccessHistory(today: today, questionnaire: record) else {
            throw CommandError.failure(Gate.refusal + "\nTry 'recoverydeck checkin'.")
        }
    }

    /// The gate for a command that opens the database itself: the store once today's questionnaire is in. With no
    /// database there is no check-in, and the refusal creates none.
    func requireTodaysCheckin() throws -> Store {
        guard let store = try existingStore() else {
            throw CommandError.failure(Gate.refusal + "\nTry 'recoverydeck checkin'.")
        }
        try requireTodaysCheckin(store)
        return store
    }
}

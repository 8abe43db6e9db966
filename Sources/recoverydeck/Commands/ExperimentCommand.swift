import JSON
import Insights
import RecoveryCore
import Store

/// `recoverydeck experiment …`: T4, a randomised test of one habit in one's own mornings (DESIGN §6). The
/// box draws which nights are "do it" and which are "leave it out" (permuted blocks, a stored seed), the
/// morning's habit chips record what was done, and the result's p-value comes from re-drawing the stored
/// scheme (`ExperimentAnalysis`).
enum Experiments {
    static let metricOption = OptionSpec.value(
        "metric", "M", help: "The morning number to test: rmssd (default), lying-hr, gap-peak, gap-avg, subjective.")
    static let blockOption = OptionSpec.value(
        "block", "K", help: "Nights per block, even (default 4): each block is half with, half without.")
    static let metrics: [(name: String, channel: Channel)] = [
        ("rmssd", .rmssd), ("lying-hr", .lyingHR), ("gap-peak", .gapPeak), ("gap-avg", .gapAvg),
        ("subjective", .subjective),
    ]

    static func metric(_ parsed: ParsedArguments) throws(CommandError) -> Channel {
        guard let name = try parsed.choice("metric", of: metrics.map(\.name)) else { return .rmssd }
        return metrics.first { $0.name == name }!.channel
    }

    static func scheme(_ parsed: ParsedArguments, daysRequired: Bool) throws(CommandError) -> RandomisationScheme? {
        let block = try parsed.integer("block", in: 1...366) ?? RandomisationScheme.defaultBlock
        guard let days = try parsed.integer("days", in: 1...10_000) else {
            if daysRequired { throw .usage("--days N is required (a whole number of blocks of \(block)).") }
            return nil
        }
        let scheme = RandomisationScheme(mornings: days, block: block)
        if let problem = scheme.problem { throw .usage(problem + ".") }
        return scheme
    }

    /// The habit named on the command line, checked against the person's habit list (an experiment's adherence
    /// comes from the morning's habit chips, so the habit must be one of them).
    static func habit(_ parsed: ParsedArguments, store: Store?) throws -> String {
        guard let habit = parsed.positional(0), !habit.isEmpty else {
            throw CommandError.usage("name the habit to test.")
        }
        let list = try store?.habitList() ?? Questionnaire.starterHabits
        guard list.contains(habit) else {
            throw CommandError.usage(
                "\(quoted(habit)) is not on your habit list (\(list.joined(separator: ", "))); an experiment "
                    + "reads what you did from the morning's habit chips, so add it first with "
                    + "'recoverydeck settings --habits'.")
        }
        return habit
    }

    /// The outcome's values through `today` (the evening's plan counts the morning), for the plan.
    static func history(_ store: Store?, _ outcome: Channel, through today: LocalDate) throws -> ExperimentPower? {
        let days = try store?.allDays() ?? []
        var values: [Double] = []
        var numbers: [Int] = []
        for d in days where d.date <= today {
            guard let v = outcome.value(in: d) else { continue }
            values.append(v)
            numbers.append(d.date.dayNumber)
        }
        return ExperimentPower.estimate(values: values, days: numbers)
    }

    static func unit(_ c: Channel) -> (unit: String, digits: Int) {
        switch c {
        case .rmssd: (" ms", 1)
        case .lyingHR, .gapPeak, .gapAvg: (" bpm", 1)
        case .subjective: ("", 2)
        }
    }

    static func outcomeLabel(_ c: Channel) -> String { Wording.label(c) }

    /// The plan's lines for `scheme` (and for `change`, a change the person names).
    static func planLines(_ power: ExperimentPower, outcome: Channel, scheme: RandomisationScheme?, change: Double?)
        -> [String]
    {
        let (unit, digits) = unit(outcome)
        let f = { (v: Double) in Formatting.fixed(v, digits: digits) }
        var lines = [
            "From your last \(power.days) mornings with a value: \(outcomeLabel(outcome)) \(f(power.mean))\(unit) on "
                + "average, day-to-day SD \(f(power.sd))\(unit), lag-one autocorrelation "
                + "\(Formatting.fixed(power.rho, digits: 2)), \(Formatting.fixed(power.missingShare * 100, digits: 0)) % "
                + "of mornings missed (the plan expects as many missed)."
        ]
        let block = scheme?.block ?? RandomisationScheme.defaultBlock
        guard power.supports(block: block) else {
            lines.append("Blocks of \(block) need a longer history; try a smaller --block.")
            return lines
        }
        if let scheme {
            let d = power.detectable(mornings: scheme.mornings, block: block)
            lines.append(
                "\(scheme.mornings) mornings in blocks of \(block) (\(scheme.mornings / 2) with, \(scheme.mornings / 2) "
                    + "without) detect a change of \(f(d))\(unit) (\(Formatting.fixed(d / abs(power.mean) * 100, digits: 0)) % "
                    + "of your \(outcomeLabel(outcome))) with 80 % power at alpha 0.05.")
        }
        if let change {
            let need = power.morningsNeeded(effect: change, block: block)
            var line = "To detect a change of \(f(abs(change)))\(unit) with 80 % power: "
            line += need.map { "\($0) mornings." } ?? "more than a year of mornings; a larger change, or none."
            if let scheme {
                let p = power.power(effect: change, mornings: scheme.mornings, block: block)
                line += " \(scheme.mornings) mornings would have \(Formatting.fixed(p * 100, digits: 0)) % power."
            }
            lines.append(line)
        }
        return lines
    }

    /// The experiment running on `today`, if any.
    static func running(_ store: Store?, on today: LocalDate) throws -> StoredExperiment? {
        try store?.experiment(runningOn: today)
    }

    /// The outcome the experiment measures. The store leaves out a row whose outcome is no channel, so a
    /// failure here is damage that reached memory another way: said, never analysed as another channel.
    static func channel(_ e: StoredExperiment) throws(CommandError) -> Channel {
        guard let channel = Channel(rawValue: e.outcome) else {
            throw .failure("the experiment's outcome \"\(e.outcome)\" is not a channel; run 'recoverydeck doctor'.")
        }
        return channel
    }

    /// "tonight: alcohol (do it)" for the night before tomorrow's morning, or nil when tomorrow is not in it.
    static func tonight(_ e: StoredExperiment, today: LocalDate) -> (arm: ExperimentArm, morning: Int)? {
        let tomorrow = today.adding(days: 1)
        guard let raw = e.arm(forMorning: tomorrow), let arm = ExperimentArm(rawValue: raw) else { return nil }
        return (arm, tomorrow.dayNumber - e.firstDay.dayNumber + 1)
    }
}

/// `recoverydeck experiment plan`.
struct ExperimentPlanCommand: Command {
    static let name = "experiment plan"
    static let summary = "Before a habit experiment: what N mornings can detect, from your own history."
    static let synopsis: String? = "HABIT [--days N] [--change X] [--block K] [--metric M]"
    static let discussion = """
        From your own mornings so far (at least 21 with a value) the plan takes the day-to-day SD and
        autocorrelation of the number tested (rMSSD unless --metric says otherwise) and how often a
        morning is missed, and says the smallest change --days N mornings can detect with 80 % power at
        alpha 0.05, or with --change X how many mornings a change of X needs. Nothing is stored.
        """
    static let options: [OptionSpec] = [
        .value("days", "N", help: "Mornings in the experiment, a whole number of blocks (default 28)."),
        .value("change", "X", help: "A change you want to detect, in the metric's unit (ms for rMSSD)."),
        Experiments.blockOption, Experiments.metricOption,
    ]
    static let arguments = [ArgumentSpec("HABIT", help: "A habit on your habit list (settings --habits).")]

    let parsed: ParsedArguments
    let scheme: RandomisationScheme
    let change: Double?
    let metric: Channel

    init(_ parsed: ParsedArguments) throws(CommandError) {
        self.parsed = parsed
        metric = try Experiments.metric(parsed)
        if parsed.value("days") == nil {
            let block = try parsed.integer("block", in: 1...366) ?? RandomisationScheme.defaultBlock
            let s = RandomisationScheme(mornings: max(28 / block, 1) * block, block: block)
            if let problem = s.problem { throw .usage(problem + ".") }
            scheme = s
        } else {
            scheme = try Experiments.scheme(parsed, daysRequired: true)!
        }
        change = try parsed.value("change").map { (t: String) throws(CommandError) in
            guard let v = Double(t), v.isFinite, v != 0 else {
                throw .usage("--change must be a number other than 0, not \(quoted(t)).")
            }
            return v
        }
    }

    func run(_ context: Context) throws {
        let store = try context.existingStore()
        let habit = try Experiments.habit(parsed, store: store)
        guard let power = try Experiments.history(store, metric, through: context.today) else {
            throw CommandError.failure(
                "a plan needs \(ExperimentPower.historyFloor) mornings with a \(Experiments.outcomeLabel(metric)) value "
                    + "that vary; measure a few more weeks first.")
        }
        context.out("Plan: \(habit) against \(Experiments.outcomeLabel(metric)).")
        for line in Experiments.planLines(power, outcome: metric, scheme: scheme, change: change) { context.out(line) }
        context.out(
            "Start it with: recoverydeck experiment start \(habit) --days \(scheme.mornings) --block \(scheme.block)")
    }
}

/// `recoverydeck experiment start`.
struct ExperimentStartCommand: Command {
    static let name = "experiment start"
    static let summary = "Start a randomised test of one habit: the box draws which nights are with and without."
    static let synopsis: String? = "HABIT --days N [--block K] [--metric M]"
    static let discussion = """
        The nights from tonight are cut into blocks of K (default 4); in each block half the nights are
        "do it" and half "leave it out", in an order drawn at random from a seed stored with the
        schedule. 'experiment tonight' and 'status' say what tonight is. Check in each morning as
        usual and toggle the habit's chip when you did it: the result compares the mornings by what
        was drawn (and, beside it, by what was done).

        One experiment at a time: a second start while one runs is refused. Stopping early is allowed
        ('experiment stop'). A habit that is not on your habit list is refused, since its chip is how
        the box knows what you did.
        """
    static let options: [OptionSpec] = [
        .value("days", "N", help: "Mornings in the experiment: 4 to 366, a whole number of blocks."),
        Experiments.blockOption, Experiments.metricOption,
    ]
    static let arguments = [ArgumentSpec("HABIT", help: "A habit on your habit list (settings --habits).")]

    let parsed: ParsedArguments
    let scheme: RandomisationScheme
    let metric: Channel

    init(_ parsed: ParsedArguments) throws(CommandError) {
        self.parsed = parsed
        scheme = try Experiments.scheme(parsed, daysRequired: true)!
        metric = try Experiments.metric(parsed)
    }

    func run(_ context: Context) throws {
        let existing = try context.existingStore()
        let habit = try Experiments.habit(parsed, store: existing)
        if let e = try Experiments.running(existing, on: context.today) {
            throw CommandError.failure(
                "an experiment with \(e.habit) runs until \(e.endDay.adding(days: -1)); stop it first with "
                    + "'recoverydeck experiment stop' (one experiment at a time keeps each one's nights its own).")
        }
        let store = try context.store()
        // The box draws, never the person: a schedule someone could choose would no longer be a randomised one.
        // The seed is stored with the schedule and shown, so the draw can be checked afterwards.
        var generator = SystemRandomNumberGenerator()
        let seed: UInt64 = generator.next()
        let arms = scheme.draw(seed: seed)
        let first = context.today.adding(days: 1)
        let e = StoredExperiment(
            habit: habit, outcome: metric.rawValue, firstDay: first, mornings: scheme.mornings, block: scheme.block,
            seed: seed, startedAt: context.nowEpochSeconds, arms: arms.map(\.rawValue))
        try store.addExperiment(e)
        DaemonNudge.storeChanged(context)  // key 9 at the bedside says tonight's arm at once
        context.out(
            "Started: \(habit) against \(Experiments.outcomeLabel(metric)), \(scheme.mornings) mornings from \(first) "
                + "through \(first.adding(days: scheme.mornings - 1)), blocks of \(scheme.block).")
        if let power = try Experiments.history(store, metric, through: context.today) {
            for line in Experiments.planLines(power, outcome: metric, scheme: scheme, change: nil).dropFirst() {
                context.out(line)
            }
        }
        context.out("The draw's seed, stored with the schedule: \(seed).")
        context.out("Tonight, night 1 of \(scheme.mornings): \(arms[0].instruction(habit)).")
    }
}

/// `recoverydeck experiment tonight`.
struct ExperimentTonightCommand: Command {
    static let name = "experiment tonight"
    static let summary = "Say what tonight is in the running experiment: do the habit, or leave it out."
    static let discussion = """
        Tonight is the night before tomorrow's morning. Exit 1 when no experiment is running.
        """
    static let options: [OptionSpec] = [.flag("json", help: "Print tonight's arm as JSON.")]

    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) { json = parsed.flag("json") }

    func run(_ context: Context) throws {
        guard let e = try Experiments.running(try context.existingStore(), on: context.today) else {
            throw CommandError.failure("no experiment is running; plan one with 'recoverydeck experiment plan HABIT'.")
        }
        let tonight = Experiments.tonight(e, today: context.today)
        if json {
            context.out(
                JSONValue.object([
                    ("habit", .string(e.habit)), ("arm", JSONValue(tonight?.arm.rawValue)),
                    ("night", JSONValue(tonight?.morning)), ("nights", JSONValue(e.mornings)),
                ]).serialized(pretty: true))
            return
        }
        guard let tonight else {
            context.out(
                "Today was the experiment's last morning: nothing to do tonight; 'recoverydeck experiment result' "
                    + "gives the result from tomorrow.")
            return
        }
        context.out("Tonight, night \(tonight.morning) of \(e.mornings): \(tonight.arm.instruction(e.habit)).")
    }
}

/// `recoverydeck experiment stop`.
struct ExperimentStopCommand: Command {
    static let name = "experiment stop"
    static let summary = "Stop the running experiment early; its mornings so far are analysed."
    static let discussion = """
        Tonight and later nights leave the experiment; the mornings up to today stay in it, and
        'experiment result' analyses them, re-drawing the schedule only as far as it ran. The p-value
        holds if the decision to stop did not depend on how the mornings looked.
        """
    static let options: [OptionSpec] = []

    init(_ parsed: ParsedArguments) throws(CommandError) {}

    func run(_ context: Context) throws {
        let store = try context.existingStore()
        guard let store, let e = try Experiments.running(store, on: context.today) else {
            throw CommandError.failure("no experiment is running, so there is nothing to stop.")
        }
        let firstLeftOut = max(context.today.adding(days: 1), e.firstDay)
        try store.stopExperiment(id: e.id, firstMorningLeftOut: firstLeftOut, at: context.nowEpochSeconds)
        DaemonNudge.storeChanged(context)
        let run = firstLeftOut.dayNumber - e.firstDay.dayNumber
        context.out(
            "Stopped the experiment with \(e.habit) after \(run) of \(e.mornings) mornings; "
                + "'recoverydeck experiment result' analyses them.")
    }
}

/// `recoverydeck experiment result`.
struct ExperimentResultCommand: Command {
    static let name = "experiment result"
    static let summary = "The result of the last experiment: the effect, its CI and a randomisation-test p-value."
    static let discussion = """
        By assignment (intention to treat): every measured morning, by what the box drew for the night
        before, whatever was done; the difference is taken within blocks (the plain difference in means
        when no morning was missed). The p-value re-draws the stored schedule 9999 times: the share of
        re-draws with a difference at least as large, exact whatever the day-to-day dependence. The CI
        holds the changes the same test would not reject. Per protocol: only mornings whose habit chip
        matched the draw, shown beside it, without a p-value (which mornings drop out is chosen, not
        drawn). Missed mornings are left out and counted; a morning without a check-in counts by
        assignment but not per protocol. Given once the experiment has ended or was stopped.
        """
    static let options: [OptionSpec] = [.flag("json", help: "Print the result as JSON.")]

    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) { json = parsed.flag("json") }

    func run(_ context: Context) throws {
        guard let existing = try context.existingStore(), let e = try existing.experiments().last else {
            throw CommandError.failure(
                "there is no experiment yet; plan one with 'recoverydeck experiment plan HABIT'.")
        }
        if e.isRunning(on: context.today) {
            let done = max(0, min(e.mornings, context.today.dayNumber - e.firstDay.dayNumber + 1))
            throw CommandError.failure(
                "the experiment with \(e.habit) runs until \(e.endDay.adding(days: -1)) (\(done) of \(e.mornings) "
                    + "mornings so far); its result comes from \(e.endDay), the day after the last morning, or after "
                    + "'recoverydeck experiment stop' (looking early and stopping when it looks good would make the "
                    + "p-value too small).")
        }
        let store = try context.requireTodaysCheckin()
        let outcome = try Experiments.channel(e)
        let run = e.morningsRun
        let days = try store.days(from: e.firstDay, through: e.firstDay.adding(days: max(0, run - 1)))
        var byDay: [Int: DayRecord] = [:]
        for d in days { byDay[d.date.dayNumber] = d }
        let mornings: [ExperimentMorning] = (0..<run).map { i in
            let day = byDay[e.firstDay.dayNumber + i]
            return ExperimentMorning(
                arm: ExperimentArm(rawValue: e.arms[i]) ?? .without, outcome: day.flatMap(outcome.value(in:)),
                didHabit: day?.questionnaire.map { $0.habits.contains(e.habit) })
        }
        let scheme = RandomisationScheme(mornings: e.mornings, block: e.block)
        guard
            let result = ExperimentAnalysis.run(
                mornings, scheme: scheme, seed: e.seed ^ 0x7265_6472_6177)  // "redraw": apart from the schedule's
        else {
            throw CommandError.failure(
                "the experiment has \(mornings.filter { $0.outcome != nil }.count) measured mornings of \(run); "
                    + "a result needs at least 2 with and 2 without.")
        }
        let (unit, digits) = Experiments.unit(outcome)
        let sentence = result.sentence(
            habit: e.habit, outcome: Experiments.outcomeLabel(outcome), unit: unit, digits: digits)
        if json {
            context.out(ExperimentResultCommand.json(e, result, sentence: sentence).serialized(pretty: true))
            return
        }
        let f = { (v: Double) in Formatting.fixed(v, digits: digits) }
        let signed = { (v: Double) in (v > 0 ? "+" : "") + f(v) }
        var lines = [(result.tier.map { $0.name + "  " } ?? "") + sentence]
        let stopped = e.stoppedDay.map { _ in " (stopped early, after \(run) of \(e.mornings))" } ?? ""
        lines.append(
            "    \(e.habit) against \(Experiments.outcomeLabel(outcome)), \(run) mornings from \(e.firstDay)\(stopped), "
                + "blocks of \(e.block); measured \(result.measured), checked in \(result.withCheckin), "
                + "followed the draw \(result.followed); the draw's seed \(e.seed).")
        let c = result.byAssignment
        lines.append(
            "    by assignment: \(signed(c.difference))\(unit), 95 % CI \(f(c.ciLow)) to \(f(c.ciHigh)), "
                + "p = \(c.p.map { $0 < 0.001 ? "<0.001" : Formatting.fixed($0, digits: 3) } ?? "-") from "
                + "\(result.redraws) re-draws of the schedule, \(c.habitMornings) vs \(c.withoutMornings) mornings")
        if let pp = result.perProtocol {
            lines.append(
                "    per protocol: \(signed(pp.difference))\(unit), 95 % CI \(f(pp.ciLow)) to \(f(pp.ciHigh)) "
                    + "(normal approximation, no p-value), \(pp.habitMornings) vs \(pp.withoutMornings) mornings")
        } else {
            lines.append("    per protocol: too few mornings followed the draw (2 with and 2 without needed)")
        }
        context.outRaw(lines.joined(separator: "\n") + "\n")
    }

    static func json(_ e: StoredExperiment, _ r: ExperimentResult, sentence: String) -> JSONValue {
        func comparison(_ c: ArmComparison) -> JSONValue {
            .object([
                ("difference", .number(c.difference)), ("percent", .number(c.percent)),
                ("ci", .array([.number(c.ciLow), .number(c.ciHigh)])), ("p", JSONValue(c.p)),
                ("habit_mornings", JSONValue(c.habitMornings)), ("without_mornings", JSONValue(c.withoutMornings)),
            ])
        }
        return .object([
            ("tier", JSONValue(r.tier?.name)), ("sentence", .string(sentence)), ("habit", .string(e.habit)),
            ("outcome", .string(e.outcome)), ("first_day", .string(e.firstDay.iso)),
            ("mornings", JSONValue(e.mornings)),
            ("mornings_run", JSONValue(e.morningsRun)), ("block", JSONValue(e.block)),
            ("seed", .string(String(e.seed))),
            ("stopped_early", .bool(e.stoppedDay != nil)), ("measured", JSONValue(r.measured)),
            ("checked_in", JSONValue(r.withCheckin)), ("followed", JSONValue(r.followed)),
            ("redraws", JSONValue(r.redraws)), ("by_assignment", comparison(r.byAssignment)),
            ("per_protocol", r.perProtocol.map(comparison) ?? .null),
        ])
    }
}

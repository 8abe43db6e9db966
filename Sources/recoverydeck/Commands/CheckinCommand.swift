import LocalClock
import Platform
import RecoveryCore
import Store

/// `recoverydeck checkin`: today's questionnaire over SSH, with the optional fields a keypad cannot
/// carry (DESIGN §1 step 2; spec §9.1 Blocks A–E).
struct CheckinCommand: Command {
    static let name = "checkin"
    static let summary = "Record today's questionnaire: five scores from 1 to 7, higher is better."
    static let synopsis: String? =
        "--fatigue N --mood N --soreness N --stress N --sleep N [--habit NAME]... [--caffeine-time HH:MM] "
        + "[--caffeine-mg N] [--last-meal HH:MM] [--note TEXT]"
    static let discussion = """
        The questionnaire opens the day: the morning measurement, status and history wait for it
        (the gate). Giving it again the same day replaces the earlier answers.

        On a terminal, scores left out are asked for. Habit names must be in the configured habit
        list (starter list: alcohol, late-caffeine, hard-training, late-night, illness).

        While the system clock is not synchronised and today is not after the newest stored day
        (a box without a real-time clock booted with an old date), nothing is filed: the check-in
        is refused with a sentence (exit 1), so no earlier day is replaced.
        """
    static let options: [OptionSpec] = [
        .value("fatigue", "N", help: "Fatigue: 1 exhausted … 7 fresh."),
        .value("mood", "N", help: "Mood: 1 very low … 7 great."),
        .value("soreness", "N", help: "Soreness, heavy legs: 1 very sore … 7 none."),
        .value("stress", "N", help: "Life stress: 1 very high … 7 very low."),
        .value("sleep", "N", help: "Sleep quality: 1 terrible … 7 excellent."),
        .repeated("habit", "NAME", help: "A habit tag for last night or yesterday; repeat for several."),
        .value("caffeine-time", "HH:MM", help: "When you last had caffeine yesterday."),
        .value("caffeine-mg", "N", help: "About how much caffeine yesterday, in mg (0 to 2000)."),
        .value("last-meal", "HH:MM", help: "When you ate last yesterday."),
        .value("note", "TEXT", help: "A free-text note (at most 2000 characters)."),
    ]

    /// The anchors of each scale (spec review notes §6), shown when asking on a terminal.
    static func anchors(_ item: SubjectiveItem) -> String {
        switch item {
        case .fatigue: "1 exhausted … 7 fresh"
        case .mood: "1 very low … 7 great"
        case .soreness: "1 very sore … 7 none"
        case .stress: "1 very high … 7 very low"
        case .sleep: "1 terrible … 7 excellent"
        }
    }

    var scores: [SubjectiveItem: Int] = [:]
    var habits: [String]
    var caffeineTime: MinuteOfDay?
    var caffeineMg: Int?
    var lastMeal: MinuteOfDay?
    var note: String?

    init(_ parsed: ParsedArguments) throws(CommandError) {
        for item in SubjectiveItem.allCases {
            scores[item] = try parsed.integer(item.rawValue, in: Score.range)
        }
        habits = parsed.values("habit")
        caffeineTime = try parsed.time("caffeine-time")
        caffeineMg = try parsed.integer("caffeine-mg", in: 0...2000)
        lastMeal = try parsed.time("last-meal")
        note = parsed.value("note")
    }

    func validate() throws(CommandError) {
        let missing = SubjectiveItem.allCases.filter { scores[$0] == nil }
        if !missing.isEmpty, !Context.standardInputIsTerminal {
            let names = missing.map { "--" + $0.rawValue }.joined(separator: ", ")
            throw .usage("missing \(names): give all five scores, or run on a terminal to be asked.")
        }
        if let note, note.count > 2000 {
            throw .usage("--note is \(note.count) characters long; the limit is 2000.")
        }
        if let bad = habits.first(where: { !Store.isHabitName($0) }) {
            throw .usage("--habit \(quoted(bad)) is not a habit name (lower-case letters, digits and -).")
        }
    }

    func run(_ context: Context) throws {
        // Until the answers are complete nothing is created: a refused habit or an abandoned prompt leaves no file.
        let configured = try context.existingStore()?.habitList() ?? Questionnaire.starterHabits
        if let unknown = habits.first(where: { !configured.contains($0) }) {
            throw CommandError.usage(
                "unknown habit \(quoted(unknown)); the configured habits are \(configured.joined(separator: ", ")).")
        }
        var values = scores
        for item in SubjectiveItem.allCases where values[item] == nil {
            values[item] = try ask(item, context)
        }
        guard let scores = SubjectiveScores(SubjectiveItem.allCases.map { values[$0] ?? 0 }) else {
            throw CommandError.failure("a score is outside 1 to 7.")
        }
        let day = context.today
        // A check-in opens its day's gate: a day not yet come (the program's clock ahead of the system's) or a
        // clock never set (1970 on a box without a real-time clock) would open the wrong one.
        if let problem = day.morningDateProblem(today: LocalTime.now().date) {
            throw CommandError.failure("\(problem) Set the clock (timedatectl) if it is wrong; nothing was saved.")
        }
        let store = try context.store()
        // Under an unset clock (no RTC, no network yet) the date may be yesterday's: refuse before replacing it.
        try context.requireClockAllowsFiling(on: day, in: store)
        let replacing = try store.hasQuestionnaire(on: day)
        let questionnaire = Questionnaire(
            date: day, scores: scores, habits: habits, caffeineTime: caffeineTime, caffeineMg: caffeineMg,
            lastMealTime: lastMeal, notes: note)
        try store.saveQuestionnaire(questionnaire, recordedAt: context.nowEpochSeconds)
        let summary = SubjectiveItem.allCases.map { "\($0.label) \(scores[$0].value)" }.joined(separator: ", ")
        let mean = Formatting.fixed(scores.mean, digits: 1)
        context.say("\(replacing ? "Replaced" : "Saved") the check-in for \(day.iso): \(summary) (mean \(mean)).")
        DaemonNudge.storeChanged(context)
    }

    private func ask(_ item: SubjectiveItem, _ context: Context) throws -> Int {
        while true {
            guard let answer = context.ask("\(item.label) (\(CheckinCommand.anchors(item))): ") else {
                throw CommandError.failure("the check-in was abandoned; nothing was saved.")
            }
            let trimmed = answer.trimmingCharacters(in: " \t")
            if let value = Int(trimmed), Score.range.contains(value) { return value }
            context.say("Please answer with a whole number from 1 to 7.")
        }
    }
}

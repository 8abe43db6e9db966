import BoxConfiguration
import JSON
import RecoveryCore
import Store

/// `recoverydeck settings`: show or change the box's settings (spec §7.1 AppSettings).
struct SettingsCommand: Command {
    static let name = "settings"
    static let summary = "Show or change the settings: habits, name, reminder, band edges."
    static let discussion = """
        Without options, prints every setting. The habit list names the habit tags a check-in may
        carry (the keypad's habit chips and checkin --habit); names are lower-case letters, digits
        and -. The display name is used for "Good morning, NAME"; an empty name removes it. The
        reminder is the time the blue light starts its slow blink (before the reminder window's end,
        10:00 unless recoverydeck.conf says otherwise), or off. The band edges are where each light
        turns yellow and red, in SDs of the 60-day norm (the spec's 1.0,1.5): A,B for every channel,
        CHANNEL=A,B for one (rmssd, lyingHR, gapPeak, gapAvg, subjective; several joined by ;), spec
        to go back; 0 < A < B ≤ 3. They can be changed once 60 complete days are stored; try them
        first with 'recoverydeck lights --try A,B'. A running daemon follows a change at once. The
        artifact rule is pattern (the default: missed, extra and ectopic beats found by their local
        pattern) or spec-20 (the spec's 20 % rule); a running daemon measures the next morning with
        it, and re-judges the mornings already stored under it when it next starts (docs/artifacts.md).
        """
    static let options: [OptionSpec] = [
        .value("habits", "NAME,NAME,…", help: "Replace the habit list (1 to 20 names, comma-separated)."),
        .value("display-name", "NAME", help: "Set the display name (at most 40 characters; \"\" removes it)."),
        .value("reminder", "HH:MM|off", help: "Set or turn off the morning reminder."),
        .value(
            "band-edges", "A,B|CHANNEL=A,B|spec",
            help: "Set the lights' yellow and red edges in SDs (default 1.0,1.5)."),
        .value("artifact-rule", "pattern|spec-20", help: "Choose the artifact rule (see the discussion)."),
        .flag("json", help: "Print the settings as JSON."),
    ]

    var habits: [String]?
    var displayName: String?
    var reminder: Settings.Reminder?
    var bandEdges: String?
    var artifactRule: ArtifactRule?
    let json: Bool

    /// Complete days stored before the edges may move (the spec: tune "after you have months of data").
    static let bandEdgesMinimumDays = 60

    init(_ parsed: ParsedArguments) throws(CommandError) {
        habits = parsed.value("habits").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: " ") }
        }
        displayName = parsed.value("display-name")
        if let text = parsed.value("reminder") {
            if text == Settings.off {
                reminder = .off
            } else if let time = MinuteOfDay(hhmm: text) {
                reminder = .at(time)
            } else {
                throw .usage("--reminder must be a 24-hour time written HH:MM, or off, not \(quoted(text)).")
            }
        }
        bandEdges = parsed.value("band-edges")
        if let bandEdges, case .failure(let error) = LightEdges.spec.applying(bandEdges) {
            throw .usage("--band-edges: \(error)")
        }
        artifactRule = try parsed.choice("artifact-rule", of: ArtifactRule.allCases.map(\.rawValue))
            .flatMap(ArtifactRule.init(rawValue:))
        json = parsed.flag("json")
    }

    func validate() throws(CommandError) {
        if let habits {
            guard Settings.habitCount.contains(habits.count) else {
                throw .usage("--habits takes \(Settings.habitCount.lowerBound) to \(Settings.habitCount.upperBound) names.")
            }
            if let bad = habits.first(where: { !Store.isHabitName($0) }) {
                throw .usage("\(quoted(bad)) is not a habit name (1 to 32 lower-case letters, digits and -).")
            }
            guard Set(habits).count == habits.count else { throw .usage("--habits names a habit twice.") }
        }
        if case .at(let time) = reminder {
            // The daemon never shows a reminder at or after its window's end: such a time would be a silent off.
            let end = (try? DaemonConfiguration.load(path: DaemonConfiguration.defaultPath, required: false))?
                .reminderWindowEnd ?? DaemonConfiguration().reminderWindowEnd
            guard time < end else {
                throw .usage(
                    "--reminder \(time) is not before the reminder window's end, \(end) "
                        + "(reminder_window_end in \(DaemonConfiguration.defaultPath)).")
            }
        }
        if let displayName, !displayName.isEmpty, !Settings.isDisplayName(displayName) {
            guard displayName.count <= Settings.displayNameLimit else {
                throw .usage("--display-name is longer than \(Settings.displayNameLimit) characters.")
            }
            throw .usage("--display-name cannot hold control characters.")
        }
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        var settings = try store.settings()
        var keys: [SettingKey] = []
        if let habits {
            settings.habits = habits
            keys.append(.habits)
        }
        if let displayName {
            settings.displayName = displayName.isEmpty ? nil : displayName
            keys.append(.displayName)
        }
        if let reminder {
            settings.reminder = reminder
            keys.append(.reminderTime)
        }
        if let bandEdges {
            let edges = try settings.bandEdges.applying(bandEdges).get()
            if edges != .spec {
                let complete = try store.completeDayCount()
                guard complete >= Self.bandEdgesMinimumDays else {
                    throw CommandError.failure(
                        "The band edges stay at the spec's until \(Self.bandEdgesMinimumDays) complete days are "
                            + "stored; there are \(complete), so \(Self.bandEdgesMinimumDays - complete) more to go "
                            + "('recoverydeck lights --try' shows what other edges would do meanwhile).")
                }
            }
            settings.bandEdges = edges
            keys.append(.bandEdges)
        }
        if let artifactRule {
            settings.artifactRule = artifactRule
            keys.append(.artifactRule)
        }
        if !keys.isEmpty {
            try store.save(settings, keys: keys)
            context.say("Saved \(keys.map(\.rawValue).joined(separator: ", ")).")
            DaemonNudge.storeChanged(context)
            return
        }
        // A stored value that does not read is said, with the default that applies instead.
        for problem in store.skippedRows { context.say("Not used: \(problem).") }
        let shown = settings.rows().compactMap { key, value in value.map { (key, $0) } }
        if json {
            context.out(JSONValue.object(shown.map { ($0.0.rawValue, JSONValue.string($0.1)) }).serialized(pretty: true))
        } else {
            for (key, value) in shown { context.out(Formatting.padded(key.rawValue, 22) + value) }
        }
    }
}

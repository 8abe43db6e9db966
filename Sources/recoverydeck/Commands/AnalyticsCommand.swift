import JSON
import RecoveryCore
import Store

/// `recoverydeck analytics`: the local analytics summary (spec §7.3; review notes §3).
struct AnalyticsCommand: Command {
    static let name = "analytics"
    static let summary = "Summarise local analytics: days completed, skips, fails, session times."
    static let discussion = """
        Counted on the box from its own records; nothing is sent anywhere. Shows days completed and
        the current streak, the share of mornings with the orthostatic part skipped, the HRV quality
        fail rate, the median session duration, strap connection failures, and how often each
        questionnaire score was given.
        """
    static let options: [OptionSpec] = [.flag("json", help: "Print the summary as JSON.")]

    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        json = parsed.flag("json")
    }

    func run(_ context: Context) throws {
        let s = try context.store().analyticsSummary(today: context.today)
        if json {
            let distribution = SubjectiveItem.allCases.map { item in
                (item.rawValue, JSONValue.array((s.distribution[item] ?? []).map { JSONValue($0) }))
            }
            context.out(
                JSONValue.object([
                    ("daysCompleted", JSONValue(s.daysCompleted)), ("currentStreak", JSONValue(s.currentStreak)),
                    ("mornings", JSONValue(s.mornings)), ("orthostaticSkipped", JSONValue(s.orthostaticSkipped)),
                    ("orthostaticSkippedShare", JSONValue(s.orthostaticSkippedShare)),
                    ("qualityFails", JSONValue(s.qualityFails)), ("qualityFailRate", JSONValue(s.qualityFailRate)),
                    ("medianSessionMs", JSONValue(s.medianSessionMs)),
                    ("bleConnectFails", JSONValue(s.bleConnectFails)),
                    ("checkins", JSONValue(s.checkins)), ("distribution", .object(distribution)),
                ]).serialized(pretty: true))
            return
        }
        func percent(_ share: Double?) -> String {
            share.map { Formatting.fixed($0 * 100, digits: 0) + " %" } ?? ReportWording.dash
        }
        let median = s.medianSessionMs.map { duration(ms: $0) } ?? ReportWording.dash
        var lines = [
            "Days completed          \(s.daysCompleted) (current streak \(s.currentStreak))",
            "Mornings measured       \(s.mornings)",
            "Orthostatic skipped     \(percent(s.orthostaticSkippedShare)) (\(s.orthostaticSkipped))",
            "HRV quality fails       \(percent(s.qualityFailRate)) (\(s.qualityFails))",
            "Median session          \(median)",
            "Strap connect fails     \(s.bleConnectFails)",
            "",
            "Check-ins               \(s.checkins)",
            ReportWording.row(["score"] + (1...7).map(String.init), [24, 6, 6, 6, 6, 6, 6]),
        ]
        for item in SubjectiveItem.allCases {
            let counts = (s.distribution[item] ?? []).map(String.init)
            lines.append(ReportWording.row([item.label] + counts, [24, 6, 6, 6, 6, 6, 6]))
        }
        context.out(lines.joined(separator: "\n"))
    }

    private func duration(ms: Double) -> String {
        let seconds = Int((ms / 1000).rounded())
        return "\(seconds / 60) min \(seconds % 60 < 10 ? "0" : "")\(seconds % 60) s"
    }
}

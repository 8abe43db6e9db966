import RecoveryCore

/// The local analytics summary (spec §7.3; review notes §3): days completed and the current streak,
/// the share of mornings with the orthostatic part skipped, the HRV quality-fail rate, the median
/// session duration, Bluetooth connection failures, and each questionnaire item's distribution.
public struct AnalyticsSummary: Hashable, Sendable {
    /// Distinct days with a `morning_completed` event.
    public var daysCompleted: Int
    /// Consecutive days ending today (or yesterday, when today has no morning yet) with a completed morning.
    public var currentStreak: Int
    /// Saved mornings (`session_duration_ms` events), remeasures included.
    public var mornings: Int
    public var orthostaticSkipped: Int
    public var qualityFails: Int
    public var bleConnectFails: Int
    /// Median of `session_duration_ms`; nil without mornings.
    public var medianSessionMs: Double?
    /// Questionnaires stored.
    public var checkins: Int
    /// For each item, how many check-ins gave each score: `distribution[.mood]![k]` counts score k+1.
    public var distribution: [SubjectiveItem: [Int]]

    /// Skipped orthostatic parts per saved morning; nil without mornings.
    public var orthostaticSkippedShare: Double? { mornings == 0 ? nil : Double(orthostaticSkipped) / Double(mornings) }

    /// Quality fails per finished capture (completed + failed); nil when there were none.
    public var qualityFailRate: Double? {
        let captures = daysCompletedEvents + qualityFails
        return captures == 0 ? nil : Double(qualityFails) / Double(captures)
    }

    /// `morning_completed` events, remeasures included (the denominator of the fail rate).
    public var daysCompletedEvents: Int

    public static func median(_ values: [Int64]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[mid]) : (Double(sorted[mid - 1]) + Double(sorted[mid])) / 2
    }
}

extension Store {
    /// The analytics summary as of `today` (for the streak).
    public func analyticsSummary(today: LocalDate) throws(StoreError) -> AnalyticsSummary {
        let completed = try events(kind: .morningCompleted)
        let completedDays = Set(completed.compactMap(\.day))
        var streak = 0
        var day = completedDays.contains(today) ? today : today.adding(days: -1)
        while completedDays.contains(day) {
            streak += 1
            day = day.adding(days: -1)
        }
        let durations = try events(kind: .sessionDurationMs).compactMap(\.value)
        var distribution: [SubjectiveItem: [Int]] = [:]
        var checkins = 0
        for item in SubjectiveItem.allCases {
            let counts = try database.prepare(
                "SELECT \(item.rawValue), count(*) FROM questionnaire GROUP BY \(item.rawValue)"
            ).rows { ($0.int(0) ?? 0, $0.int(1) ?? 0) }
            var histogram = [Int](repeating: 0, count: 7)
            for (score, count) in counts where Score.range.contains(score) { histogram[score - 1] = count }
            distribution[item] = histogram
            checkins = histogram.reduce(0, +)
        }
        return AnalyticsSummary(
            daysCompleted: completedDays.count, currentStreak: streak, mornings: durations.count,
            orthostaticSkipped: try events(kind: .orthostaticSkipped).count,
            qualityFails: try events(kind: .hrvQualityFail).count,
            bleConnectFails: try events(kind: .bleConnectFail).count,
            medianSessionMs: AnalyticsSummary.median(durations), checkins: checkins, distribution: distribution,
            daysCompletedEvents: completed.count)
    }
}

/// Day of the week as a confounder (DESIGN §6: calendar rhythms are checked before T3). Training plans, work
/// and weekends give many habits and many morning series a weekly rhythm; two series that both follow the
/// week correlate whatever causes what. The check compares like days with like days: x and y each lose the
/// mean of their own day of the week (the partial correlation given the seven days as categories), and the
/// association is recomputed on what is left.
public struct WeekdayCheck: Sendable, Equatable {
    /// r after each series lost its day-of-week means.
    public var withinDays: Double
    /// Pearson r of the same pairs before (for the ratio below).
    public var overall: Double

    /// The day of the week explains the association when comparing like days leaves less than the floor a
    /// finding needs (|r| ≥ 0.25) and at most three quarters of the overall r, or turns its sign. The ratio
    /// keeps a finding just above the floor, whose r hardly moves, from being blamed on the week.
    public var explained: Bool {
        if (withinDays < 0) != (overall < 0) { return true }
        return abs(withinDays) < Scan.minimumEffect && abs(withinDays) <= 0.75 * abs(overall)
    }

    /// What the card says.
    public var sentence: String {
        let r = WeekdayCheck.twoDigits(withinDays)
        return explained
            ? "explained by the day of the week (comparing like days, r = \(r))"
            : "holds within each day of the week (comparing like days, r = \(r))"
    }

    static func twoDigits(_ v: Double) -> String {
        let hundredths = Int((abs(v) * 100).rounded())
        let text = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        return (v < 0 ? "-" : "+") + text
    }

    /// The check for paired values on day numbers `days` (the feature's morning; the outcome's morning is a fixed
    /// lag later, so grouping by either day gives the same groups). nil when fewer than 8 pairs or no variation
    /// is left within the days of the week.
    public static func run(x: [Double], y: [Double], days: [Int]) -> WeekdayCheck? {
        precondition(x.count == y.count && y.count == days.count, "WeekdayCheck: one day per pair")
        guard x.count >= 8, let overall = pearson(x, y) else { return nil }
        let weekday = days.map { (($0 % 7) + 7) % 7 }
        guard let within = pearson(removingGroupMeans(x, weekday), removingGroupMeans(y, weekday)) else { return nil }
        return WeekdayCheck(withinDays: within, overall: overall)
    }

    static func removingGroupMeans(_ v: [Double], _ group: [Int]) -> [Double] {
        var sum = [Double](repeating: 0, count: 7)
        var count = [Int](repeating: 0, count: 7)
        for (value, g) in zip(v, group) {
            sum[g] += value
            count[g] += 1
        }
        return zip(v, group).map { value, g in value - sum[g] / Double(count[g]) }
    }
}

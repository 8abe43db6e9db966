import Insights
import JSON
import RecoveryCore

/// The "Not like you" flag as `status`, `history` and `export` show it (docs/not-like-you.md), so they agree.
enum NotLikeYouFigures {
    /// `{"status": "building"|"normal"|"flagged", "newFlag": bool, "cusum": …, "zLyingHR": …, "zLnRMSSD": …,
    /// "episode": null | {"firstDay", "flaggedDay", "mornings", "days", "lyingHRAboveBpm", "lnRMSSDBelow",
    /// "tier": "T0", "sentence"}}`.
    static func json(_ m: NotLikeYou.Morning, on date: LocalDate) -> JSONValue {
        let episode: JSONValue =
            m.episode.map { e in
                .object([
                    ("firstDay", .string(date.adding(days: e.firstDay - dayIndex(m, e)).iso)),
                    ("flaggedDay", .string(date.adding(days: e.flaggedDay - dayIndex(m, e)).iso)),
                    ("mornings", JSONValue(e.mornings)), ("days", JSONValue(e.days)),
                    ("lyingHRAboveBpm", JSONValue(e.lyingHRAbove)), ("lnRMSSDBelow", JSONValue(e.lnRMSSDBelow)),
                    ("tier", .string(e.tier.name)), ("sentence", .string(e.sentence)),
                ])
            } ?? .null
        return .object([
            ("status", .string(m.status.rawValue)), ("newFlag", .bool(m.isNewFlag)), ("cusum", .number(m.cusum)),
            ("zLyingHR", JSONValue(m.zLyingHR)), ("zLnRMSSD", JSONValue(m.zLnRMSSD)), ("episode", episode),
        ])
    }

    /// The day index of `m` itself: an episode's `days` counts through the day read out.
    private static func dayIndex(_ m: NotLikeYou.Morning, _ e: NotLikeYou.Episode) -> Int { e.firstDay + e.days - 1 }

    /// The detector's reading of `today` from every stored day; nil when nothing is stored by then.
    static func reading(_ stored: [DayRecord], today: LocalDate) -> NotLikeYou.Morning? {
        NotLikeYou.run(days: stored, through: today).last { $0.date == today }?.morning
    }

    /// The `status` line: the sentence while an episode lasts, nothing otherwise.
    static func line(_ m: NotLikeYou.Morning?) -> String? {
        guard let e = m?.episode else { return nil }
        return "Not like you  \(e.tier.name): \(e.sentence)" + (m!.isNewFlag ? " (new today)" : "")
    }

    /// The mark `history` puts on a flagged day.
    static let mark = "◆ not like you"

    /// The days of every episode, looking back: from each episode's first morning (the run that raised it)
    /// through its last flagged day, so the marks agree with "the last 3 mornings".
    static func episodeDays(_ run: [(date: LocalDate, morning: NotLikeYou.Morning)]) -> [LocalDate: NotLikeYou.Episode]
    {
        var days: [LocalDate: NotLikeYou.Episode] = [:]
        for (date, morning) in run {
            guard let e = morning.episode else { continue }
            for back in 0..<e.days { days[date.adding(days: -back)] = e }
        }
        return days
    }

    /// `report`'s row under the sparklines: ◆ on a flagged day, · on a day read as normal, a blank while the
    /// normal builds or before anything is stored; then the latest episode's sentence when one is shown.
    static func reportLines(_ stored: [DayRecord], through last: LocalDate, count: Int) -> [String] {
        let run = NotLikeYou.run(days: stored, through: last)
        var byDate: [LocalDate: NotLikeYou.Morning] = [:]
        for (date, morning) in run { byDate[date] = morning }
        let episodes = episodeDays(run)
        let dates = (0..<count).map { last.adding(days: $0 - count + 1) }
        let marks = dates.map { date -> String in
            if episodes[date] != nil { return "◆" }
            return byDate[date]?.status == .normal ? "·" : " "
        }
        let shown = dates.filter { episodes[$0] != nil }
        var lines = ["unlike you \(marks.joined())  \(shown.isEmpty ? "none" : "\(shown.count) days")"]
        if let date = shown.last, let e = episodes[date] {
            lines.append("           \(date.iso), \(e.tier.name): \(e.sentence)")
        }
        return lines
    }
}

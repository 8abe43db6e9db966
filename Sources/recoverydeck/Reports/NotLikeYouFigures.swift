import JSON
import Insights
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

    /// The `status` line: the sentence while an episode lasts, nothing otherwise.
    static func line(_ m: NotLikeYou.Morning?) -> String? {
        guard let e = m?.episode else { return nil }
        return "Not like you  \(e.tier.name): \(e.sentence)" + (m!.isNewFlag ? " (new today)" : "")
    }

    /// The mark `history` puts on a flagged day.
    static let mark = "◆ not like you"
}

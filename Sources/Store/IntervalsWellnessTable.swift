import RecoveryCore

/// The wellness CSV intervals.icu's wellness upload reads: a `date` column (YYYY-MM-DD) and columns named after
/// its wellness fields (intervals.icu API, `GET /api/v1/athlete/{id}/wellness` lists them: `restingHR`, `hrv`,
/// `hrvSDNN`, `soreness`, `fatigue`, `stress`, `mood`, `sleepQuality`, `comments`). One row per day with
/// anything to say; an empty cell is a value the box does not have.
///
/// - `restingHR`: the lying heart rate (spec §6.1: the lying HR is the daily resting HR), whole bpm.
/// - `hrv`: rMSSD in ms of a capture whose quality passed; `hrvSDNN` beside it.
/// - The questionnaire: intervals.icu's subjective fields run 1–4 with 1 the good end (1 = not sore, low
///   fatigue, low stress, great mood, great sleep; 4 = extreme or poor; its developer on the intervals.icu forum,
///   "API access to Intervals.icu"), the box's 1–7 with 7 the good end: 7–6 → 1, 5–4 → 2, 3–2 → 3, 1 → 4, so the
///   box's middle lands on intervals.icu's "average" and only the box's worst answer on its extreme.
/// - `comments`: the raw 1–7 answers, and the check-in's note, so nothing is lost in the smaller scale.
public enum IntervalsWellnessTable {
    public static let columns = [
        "date", "restingHR", "hrv", "hrvSDNN", "fatigue", "soreness", "stress", "mood", "sleepQuality", "comments",
    ]

    public static func csv(_ days: [DayRecord]) -> String {
        var text = columns.joined(separator: ",") + "\n"
        for day in days {
            guard let cells = row(day) else { continue }
            text += cells.map(DayTable.cell).joined(separator: ",") + "\n"
        }
        return text
    }

    /// The box's 1–7 answer (7 best) on intervals.icu's 1–4 scale (1 best).
    public static func level(_ score: Int) -> Int {
        switch score {
        case 6...: 1
        case 4...5: 2
        case 2...3: 3
        default: 4
        }
    }

    /// The raw answers, as the `comments` cell carries them.
    public static func comment(_ q: Questionnaire) -> String {
        let s = q.scores
        var text =
            "RecoveryDeck check-in 1-7, higher = better: fatigue \(s.fatigue.value), mood \(s.mood.value), "
            + "soreness \(s.soreness.value), life stress \(s.stress.value), sleep \(s.sleep.value)"
        if let notes = q.notes, !notes.isEmpty { text += "; note: " + notes }
        return text
    }

    static func row(_ day: DayRecord) -> [String]? {
        let rmssd = Channel.rmssd.value(in: day)
        let lyingHR = Channel.lyingHR.value(in: day)
        let q = day.questionnaire
        guard rmssd != nil || lyingHR != nil || q != nil else { return nil }
        func level(_ score: Int?) -> String { score.map { String(Self.level($0)) } ?? "" }
        return [
            day.date.iso, lyingHR.map { String(Int($0.rounded())) } ?? "", DayTable.number(rmssd),
            rmssd == nil ? "" : DayTable.number(day.measurement?.hrv?.sdnnMs),
            level(q?.scores.fatigue.value), level(q?.scores.soreness.value), level(q?.scores.stress.value),
            level(q?.scores.mood.value), level(q?.scores.sleep.value), q.map(comment) ?? "",
        ]
    }
}

import JSON
import RecoveryCore

/// The CSV export: one row per stored day (RFC 4180 quoting, `\n` line ends, UTF-8), a header row
/// first. Empty cells are missing values. Habits are `;`-separated in one cell. Times are local
/// `HH:MM`; `started_at` is seconds since the Unix epoch. Raw samples and analytics are JSON-only.
public enum DayTable {
    public static let columns = [
        "date", "imported", "fatigue", "mood", "soreness", "stress", "sleep", "subjective_mean", "habits",
        "caffeine_time", "caffeine_mg", "last_meal_time", "notes", "started_at", "duration_ms", "quality",
        "rmssd_ms", "rmssd_method", "rmssd_pairs", "mean_rr_ms", "mean_hr_bpm", "sdnn_ms", "accepted", "rejected",
        "artifact_ratio",
        "orthostatic_status", "avg_lying_hr", "avg_standing_hr", "peak_standing_hr", "gap_avg", "gap_peak",
        "strap_address", "strap_battery_percent",
    ]

    public static func csv(_ days: [DayRecord]) -> String {
        var text = columns.joined(separator: ",") + "\n"
        for day in days { text += row(day).map(cell).joined(separator: ",") + "\n" }
        return text
    }

    static func row(_ day: DayRecord) -> [String] {
        let q = day.questionnaire
        let m = day.measurement
        return [
            day.date.iso, day.imported ? "true" : "false",
            number(q?.scores.fatigue.value), number(q?.scores.mood.value), number(q?.scores.soreness.value),
            number(q?.scores.stress.value), number(q?.scores.sleep.value), number(q?.scores.mean),
            q?.habits.joined(separator: ";") ?? "", q?.caffeineTime?.description ?? "", number(q?.caffeineMg),
            q?.lastMealTime?.description ?? "", q?.notes ?? "",
            number(m?.startedAtEpoch), number(m?.durationMs), m?.quality.code ?? "",
            number(m?.hrv?.rmssdMs), m?.hrv?.rmssdMethod.rawValue ?? "", number(m?.hrv?.pairs),
            number(m?.hrv?.meanRRMs), number(m?.meanHRBpm ?? m?.hrv?.meanHRBpm),
            number(m?.hrv?.sdnnMs), number(m?.hrv?.accepted), number(m?.hrv?.rejected), number(m?.hrv?.artifactRatio),
            m?.orthostaticStatus.rawValue ?? "", number(m?.orthostatic?.avgLyingHR),
            number(m?.orthostatic?.avgStandingHR), number(m?.orthostatic?.peakStandingHR),
            number(m?.orthostatic?.gapAvg), number(m?.orthostatic?.gapPeak), m?.strapAddress ?? "",
            number(m?.strapBatteryPercent),
        ]
    }

    private static func number(_ v: Int?) -> String { v.map(String.init) ?? "" }
    private static func number(_ v: Int64?) -> String { v.map(String.init) ?? "" }
    static func number(_ v: Double?) -> String { v.map { JSONValue.number($0).serialized() } ?? "" }

    /// Quotes a cell holding a comma, a quote or a line break; doubles inner quotes (RFC 4180 §2).
    /// A cell a spreadsheet would evaluate as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage return,
    /// and not a plain number) is prefixed with `'` and quoted, so it is shown as text (OWASP, "CSV Injection").
    static func cell(_ text: String) -> String {
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), Double(text) == nil {
            return "\"'" + text.replacing("\"", with: "\"\"") + "\""
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}

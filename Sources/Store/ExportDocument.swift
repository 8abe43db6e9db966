import JSON
import RecoveryCore

/// The person's data as one JSON document (spec §7.4: a stable schema with `protocolVersion`, so a
/// later exporter can map fields to TrainingPeaks or Intervals.icu without schema thrash).
///
/// Schema, `protocolVersion` 2. Keys appear in this order; a missing value is `null`, never 0.
///
/// Version 2 (rMSSD over adjacent pairs, spec §5.1): `rmssdMs` changed meaning (pairs of accepted beats adjacent
/// as received, no longer consecutive entries of the accepted list), and `rmssdMethod` and `rmssdPairs` say
/// how each value was computed. A version 1 document is read with `rmssdMethod` "accepted_list".
///
///     {
///       "protocolVersion": 2,
///       "generator": "RecoveryDeck",
///       "generatedAt": 1773122400,          // seconds since the Unix epoch (UTC)
///       "full": false,                      // true: rr, heartRate, settings and analytics are present
///       "habits": ["alcohol", …],           // the configured habit list
///       "days": [                           // oldest first; only days with something stored
///         {
///           "date": "2026-03-10",           // local calendar day, YYYY-MM-DD
///           "imported": false,              // true: came from a history import, not a box measurement
///           "questionnaire": null | {
///             "fatigue": 1…7, "mood": 1…7, "soreness": 1…7, "stress": 1…7, "sleep": 1…7,  // higher = better
///             "subjectiveMean": 5.2,        // mean of the five (derived; ignored when read back)
///             "habits": ["alcohol"],        // sorted
///             "caffeineTime": "14:30" | null, "caffeineMg": 120 | null,
///             "lastMealTime": "19:45" | null, "notes": "text" | null
///           },
///           "measurement": null | {
///             "startedAt": 1773122400,      // seconds since the Unix epoch
///             "durationMs": 183000,
///             "quality": "ok" | "too_few_beats" | "too_many_artifacts" | "rr_unavailable",
///             "hrv": null | {               // null in HR-only (degraded) mode
///               "rmssdMs": 48.2 | null,
///               "rmssdMethod": "adjacent_pairs" | "accepted_list" | "external",  // see RMSSDMethod
///               "rmssdPairs": 68 | null,    // the adjacent pairs rMSSD was taken over
///               "meanRRMs": 1020.5 | null, "meanHRBpm": 58.8 | null,
///               "sdnnMs": 52.0 | null, "accepted": 70, "rejected": 1, "artifactRatio": 0.014,
///               "grade": "good" | "fair", "gradeNote": "fair (7.3 % of beats rejected)" | null, // over 5 % rejected
///               "judgedBy": null | {        // null: judged before this was recorded, or imported
///                 "rule": "pattern" | "spec-20", "version": 2,   // the artifact rule and its detector's version
///                 "rejected": {"missed": 2, "ectopic": 1}        // rejected beats by reason (ArtifactTally.Reason)
///               }
///             },
///             "meanHRBpm": 58.8 | null,      // mean HR over the capture (degraded mode keeps this and the
///                                            // orthostatic part, both from BPM samples; "hrv" is null)
///             "orthostaticStatus": "completed" | "skipped" | "failed",
///             "orthostatic": null | {        // bpm
///               "avgLyingHR": 55.0, "avgStandingHR": 75.0, "peakStandingHR": 95.0,
///               "gapAvg": 20.0, "gapPeak": 40.0   // derived; ignored when read back
///             },
///             "strapAddress": "A0:9E:1A:12:34:56" | null, "strapBatteryPercent": 0…100 | null,
///             "phases": {                    // ms since the session started
///               "settleStartMs": 0, "captureStartMs": 15000, "captureEndMs": 75000,
///               "lyingEndMs": 105000 | null, "standStartMs": 108000 | null, "standEndMs": 168000 | null
///             },
///             "rr": { "raw": [1000, …], "receivedAtMs": [812, …] },        // full only; raw in 1/1024 s
///             "heartRate": { "bpm": [60, …], "receivedAtMs": [812, …] }   // full only
///           }
///         }
///       ],
///       "settings": { "display_name": "Zach", … },   // full only; every setting as text
///       "analytics": [                               // full only; in recorded order
///         { "at": 1773122583, "day": "2026-03-10" | null, "kind": "morning_completed",
///           "value": 183000 | null, "payload": "too_few_beats" | null }
///       ],
///       "experiments": [                             // full only; oldest first; T4 (DESIGN §6)
///         { "id": 1, "habit": "alcohol", "outcome": "rmssd" | "lyingHR" | "gapPeak" | "gapAvg" | "subjective",
///           "firstDay": "2026-03-11",                // the first morning of the schedule
///           "mornings": 28, "block": 2,
///           "seed": "12345678901234567890",          // unsigned 64-bit, as text (exact in any JSON reader)
///           "startedAt": 1773122400,
///           "stoppedDay": "2026-03-20" | null,       // stopped early: the first morning left out
///           "stoppedAt": 1773900000 | null,
///           "arms": ["habit", "without", …] }        // one per morning from firstDay, in order
///       ],
///       "readout": {                                 // derived, written by `recoverydeck export`; ignored
///         "bandEdges": { "rmssd": { "yellow": 1.0, "red": 1.5 }, …, "spec": true },   // when read back
///         "lnRMSSDWeek": [ { "date": "2026-03-10", "lnRMSSD": 3.875, "rollingMean7": 3.9, "cv7Percent": 2.1,
///                            "smallestWorthwhileChange": 0.06, "validMornings": 6, "windowMornings": 7,
///                            "rollingMeanUnreliable": false }, … ],  // one per stored day
///         "notLikeYou": [ { "date": "2026-03-10", "status": "building" | "normal" | "flagged", "newFlag": false,
///                           "cusum": 0.0, "zLyingHR": 0.4 | null, "zLnRMSSD": -0.2 | null,
///                           "episode": null | { "firstDay", "flaggedDay", "mornings", "days", "lyingHRAboveBpm",
///                                               "lnRMSSDBelow", "tier": "T0", "sentence" } }, … ]  // docs/not-like-you.md
///       }
///     }
///
/// `readout` was added within version 2 as well (every export, full or not).
///
/// `experiments` was added within version 2 (a new key changes no existing one); a full export without it
/// holds no experiment.
///
/// Compatibility: a later version only adds keys; readers ignore keys they do not know. A change
/// that alters the meaning of an existing key raises `protocolVersion`.
public struct ExportDocument: Hashable, Sendable {
    public static let protocolVersion = 2

    public var generatedAt: Int64
    /// Whether raw samples, settings and analytics are included.
    public var full: Bool
    public var habits: [String]
    public var days: [DayRecord]
    /// Full exports only; empty otherwise.
    public var settings: [String: String]
    /// Full exports only; empty otherwise.
    public var analytics: [AnalyticsEvent]
    /// Full exports only; empty otherwise.
    public var experiments: [StoredExperiment]

    public init(
        generatedAt: Int64, full: Bool, habits: [String], days: [DayRecord], settings: [String: String] = [:],
        analytics: [AnalyticsEvent] = [], experiments: [StoredExperiment] = []
    ) {
        self.generatedAt = generatedAt
        self.full = full
        self.habits = habits
        self.days = days
        self.settings = settings
        self.analytics = analytics
        self.experiments = experiments
    }

    // MARK: Writing

    public var json: JSONValue {
        var top: [(String, JSONValue)] = [
            ("protocolVersion", .integer(Int64(ExportDocument.protocolVersion))),
            ("generator", .string("RecoveryDeck")),
            ("generatedAt", .integer(generatedAt)),
            ("full", .bool(full)),
            ("habits", .array(habits.map { .string($0) })),
            ("days", .array(days.map { ExportDocument.json($0, full: full) })),
        ]
        if full {
            top.append(("settings", .object(settings.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
            top.append(("analytics", .array(analytics.map(ExportDocument.json))))
            top.append(("experiments", .array(experiments.map(ExportDocument.json))))
        }
        return .object(top)
    }

    /// One day as it appears in `days` (also used by the CLI's `--json` output).
    public static func json(_ day: DayRecord, full: Bool) -> JSONValue {
        .object([
            ("date", .string(day.date.iso)),
            ("imported", .bool(day.imported)),
            ("questionnaire", day.questionnaire.map(json) ?? .null),
            ("measurement", day.measurement.map { json($0, full: full) } ?? .null),
        ])
    }

    /// A questionnaire as it appears in a day.
    public static func json(_ q: Questionnaire) -> JSONValue {
        .object([
            ("fatigue", JSONValue(q.scores.fatigue.value)),
            ("mood", JSONValue(q.scores.mood.value)),
            ("soreness", JSONValue(q.scores.soreness.value)),
            ("stress", JSONValue(q.scores.stress.value)),
            ("sleep", JSONValue(q.scores.sleep.value)),
            ("subjectiveMean", .number(q.scores.mean)),
            ("habits", .array(q.habits.map { .string($0) })),
            ("caffeineTime", JSONValue(q.caffeineTime?.description)),
            ("caffeineMg", JSONValue(q.caffeineMg)),
            ("lastMealTime", JSONValue(q.lastMealTime?.description)),
            ("notes", JSONValue(q.notes)),
        ])
    }

    /// How a morning's beats were judged (docs/artifacts.md, "Provenance"); null when that is not known.
    public static func judgementJSON(_ tally: ArtifactTally?) -> JSONValue {
        guard let tally else { return .null }
        let counts = ArtifactTally.Reason.allCases.filter { tally[$0] > 0 }.map {
            ($0.rawValue, JSONValue.integer(Int64(tally[$0])))
        }
        return .object([
            ("rule", .string(tally.rule.rawValue)), ("version", .integer(Int64(tally.version))),
            ("rejected", .object(counts)),
        ])
    }

    /// A measurement as it appears in a day.
    public static func json(_ m: MorningMeasurement, full: Bool) -> JSONValue {
        let hrv: JSONValue =
            m.hrv.map {
                .object([
                    ("rmssdMs", JSONValue($0.rmssdMs)), ("rmssdMethod", .string($0.rmssdMethod.rawValue)),
                    ("rmssdPairs", JSONValue($0.pairs)), ("meanRRMs", JSONValue($0.meanRRMs)),
                    ("meanHRBpm", JSONValue($0.meanHRBpm)), ("sdnnMs", JSONValue($0.sdnnMs)),
                    ("accepted", JSONValue($0.accepted)), ("rejected", JSONValue($0.rejected)),
                    ("artifactRatio", .number($0.artifactRatio)),
                    ("grade", .string($0.grade)), ("gradeNote", JSONValue($0.fairNote)),
                    ("judgedBy", judgementJSON($0.judgement)),
                ])
            } ?? .null
        let orthostatic: JSONValue =
            m.orthostatic.map {
                .object([
                    ("avgLyingHR", .number($0.avgLyingHR)), ("avgStandingHR", .number($0.avgStandingHR)),
                    ("peakStandingHR", .number($0.peakStandingHR)), ("gapAvg", .number($0.gapAvg)),
                    ("gapPeak", .number($0.gapPeak)),
                ])
            } ?? .null
        var members: [(String, JSONValue)] = [
            ("startedAt", .integer(m.startedAtEpoch)),
            ("durationMs", .integer(m.durationMs)),
            ("quality", .string(m.quality.code)),
            ("hrv", hrv),
            ("meanHRBpm", JSONValue(m.meanHRBpm)),
            ("orthostaticStatus", .string(m.orthostaticStatus.rawValue)),
            ("orthostatic", orthostatic),
            ("strapAddress", JSONValue(m.strapAddress)),
            ("strapBatteryPercent", JSONValue(m.strapBatteryPercent)),
            (
                "phases",
                .object([
                    ("settleStartMs", .integer(m.marks.settleStartMs)),
                    ("captureStartMs", .integer(m.marks.captureStartMs)),
                    ("captureEndMs", .integer(m.marks.captureEndMs)),
                    ("lyingEndMs", JSONValue(m.marks.lyingEndMs)),
                    ("standStartMs", JSONValue(m.marks.standStartMs)),
                    ("standEndMs", JSONValue(m.marks.standEndMs)),
                ])
            ),
        ]
        if full {
            members.append(
                (
                    "rr",
                    .object([
                        ("raw", .array(m.rawRR.map { .integer(Int64($0.raw)) })),
                        ("receivedAtMs", .array(m.rawRR.map { .integer($0.receivedAtMs) })),
                    ])
                ))
            members.append(
                (
                    "heartRate",
                    .object([
                        ("bpm", .array(m.heartRates.map { .integer(Int64($0.bpm)) })),
                        ("receivedAtMs", .array(m.heartRates.map { .integer($0.receivedAtMs) })),
                    ])
                ))
        }
        return .object(members)
    }

    static func json(_ e: AnalyticsEvent) -> JSONValue {
        .object([
            ("at", .integer(e.at)), ("day", JSONValue(e.day?.iso)), ("kind", .string(e.kind.rawValue)),
            ("value", JSONValue(e.value)), ("payload", JSONValue(e.payload)),
        ])
    }

    static func json(_ e: StoredExperiment) -> JSONValue {
        .object([
            ("id", .integer(e.id)), ("habit", .string(e.habit)), ("outcome", .string(e.outcome)),
            ("firstDay", .string(e.firstDay.iso)), ("mornings", JSONValue(e.mornings)), ("block", JSONValue(e.block)),
            ("seed", .string(String(e.seed))), ("startedAt", .integer(e.startedAt)),
            ("stoppedDay", JSONValue(e.stoppedDay?.iso)), ("stoppedAt", JSONValue(e.stoppedAt)),
            ("arms", .array(e.arms.map { .string($0) })),
        ])
    }
}

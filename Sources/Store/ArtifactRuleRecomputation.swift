import RecoveryCore

/// Recomputes every stored morning from its raw RR under the chosen artifact rule (the `artifact_rule` setting,
/// else `ArtifactRule.default`; docs/artifacts.md), so the baselines compare like with like: mornings stored
/// before the pattern rule were judged by the spec's 20 % rule.
///
/// Only a morning whose rMSSD was reproduced from its raw RR (`adjacent_pairs`) is recomputed: its counts,
/// ratio, rMSSD, pairs, mean RR and HR, SDNN and quality verdict are replaced, and the change is recorded in
/// `rmssd_recomputation` (day, rule, rMSSD and rejected beats before and after), which `Store.recomputedDays`
/// reads back. Mornings without raw RR or not reproduced keep their values.
enum ArtifactRuleRecomputation {
    @Sendable static func apply(_ database: Database) throws(StoreError) {
        let chosen = try database.prepare("SELECT value FROM setting WHERE key = ?1")
            .rows([.text(SettingKey.artifactRule.rawValue)]) { $0.text(0) ?? "" }.first
        let rule = chosen.flatMap(ArtifactRule.init(rawValue:)) ?? .default
        _ = try recompute(database, rule: rule, only: "")
    }

    /// Recomputes the stored mornings with raw RR (`adjacent_pairs`) that `only` (an SQL condition, or "") picks,
    /// under `rule`, recording each in `rmssd_recomputation`; returns how many were recomputed and how many moved.
    /// The judgement columns are written when the schema has them (the 0004 step runs before they exist).
    static func recompute(_ database: Database, rule: ArtifactRule, only: String, judged: Bool = false)
        throws(StoreError) -> (mornings: Int, moved: Int)
    {
        let sql = """
            SELECT day, rmssd_ms, hrv_rejected, settle_start_ms, capture_start_ms, capture_end_ms, rr_raw, hr_readings
            FROM measurement WHERE hrv_accepted IS NOT NULL AND rmssd_method = 'adjacent_pairs'
            \(only.isEmpty ? "" : "AND (\(only))") ORDER BY day
            """
        struct Row {
            var day: String
            var rmssd: Double?
            var rejected: Int
            var marks: PhaseMarks
            var rr: [RRInterval]
            var heartRates: [HeartRateReading]
        }
        let rows = try database.prepare(sql).rows { (row) throws(StoreError) -> Row in
            Row(
                day: row.text(0) ?? "", rmssd: row.double(1), rejected: row.int(2) ?? 0,
                marks: PhaseMarks(
                    settleStartMs: row.int64(3) ?? 0, captureStartMs: row.int64(4) ?? 0,
                    captureEndMs: row.int64(5) ?? 0),
                rr: try SampleEncoding.decodeRR(row.blob(6) ?? []),
                heartRates: try SampleEncoding.decodeHeartRates(row.blob(7) ?? []))
        }
        var counts = (mornings: 0, moved: 0)
        for row in rows where !row.rr.isEmpty {
            let result = RMSSDRecomputation.recomputed(row.rr, marks: row.marks, rule: rule, heartRates: row.heartRates)
            let m = result.metrics
            guard m.accepted > 0 else { continue }
            try database.run(
                """
                UPDATE measurement SET hrv_accepted = ?2, hrv_rejected = ?3, hrv_artifact_ratio = ?4, rmssd_ms = ?5,
                    rmssd_pairs = ?6, mean_rr_ms = ?7, hrv_mean_hr_bpm = ?8, sdnn_ms = ?9, quality = ?10
                WHERE day = ?1
                """,
                [
                    .text(row.day), .integer(Int64(m.accepted)), .integer(Int64(m.rejected)), .real(m.artifactRatio),
                    SQLValue(m.rmssdMs), SQLValue(m.pairs), SQLValue(m.meanRRMs), SQLValue(m.meanHRBpm),
                    SQLValue(m.sdnnMs), .text(result.quality.code),
                ])
            if judged, let tally = m.judgement {
                try database.run(
                    "UPDATE measurement SET artifact_rule = ?2, detector_version = ?3, hrv_rejections = ?4 WHERE day = ?1",
                    [.text(row.day), .text(tally.rule.rawValue), .integer(Int64(tally.version)), .text(tally.countsCode)])
            }
            try database.run(
                """
                INSERT OR REPLACE INTO rmssd_recomputation
                    (day, rule, before_rmssd_ms, after_rmssd_ms, before_rejected, after_rejected)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """,
                [
                    .text(row.day), .text(rule.rawValue), SQLValue(row.rmssd), SQLValue(m.rmssdMs),
                    .integer(Int64(row.rejected)), .integer(Int64(m.rejected)),
                ])
            counts.mornings += 1
            if row.rmssd != m.rmssdMs || row.rejected != m.rejected { counts.moved += 1 }
        }
        return counts
    }
}

/// One stored morning the artifact rule's recomputation changed.
public struct RecomputedDay: Hashable, Sendable {
    public var day: String
    public var rule: String
    public var beforeRMSSDMs: Double?
    public var afterRMSSDMs: Double?
    public var beforeRejected: Int
    public var afterRejected: Int
}

extension Store {
    /// The mornings the artifact rule's recomputation moved (rMSSD or rejected beats changed), by day.
    public func recomputedDays() throws(StoreError) -> [RecomputedDay] {
        try database.prepare(
            """
            SELECT day, rule, before_rmssd_ms, after_rmssd_ms, before_rejected, after_rejected
            FROM rmssd_recomputation
            WHERE before_rmssd_ms IS NOT after_rmssd_ms OR before_rejected IS NOT after_rejected ORDER BY day
            """
        ).rows { row in
            RecomputedDay(
                day: row.text(0) ?? "", rule: row.text(1) ?? "", beforeRMSSDMs: row.double(2),
                afterRMSSDMs: row.double(3), beforeRejected: row.int(4) ?? 0, afterRejected: row.int(5) ?? 0)
        }
    }
}

import RecoveryCore

/// Recomputes every stored morning's rMSSD from its raw RR with the adjacent-pair rule (RecoveryDeck spec §5.1),
/// so the baselines compare like with like: mornings stored before the rule took differences across removed
/// beats.
///
/// The window is replayed from the raw RR and the phase marks (`HRVAnalysis.reanalyze`); a morning imported from
/// an RR file (no session marks) goes through the file analysis again (`HRVAnalysis.analyze(_:window: .morning)`).
/// The replay must reproduce the stored accepted and rejected counts, which proves it saw the same window; only
/// then are rMSSD, its pairs and the quality verdict (the floor on pairs) replaced. A morning that cannot be
/// reproduced keeps its value, marked `accepted_list`; one without raw RR (a value from another tool's export)
/// is marked `external`.
enum RMSSDRecomputation {
    @Sendable static func apply(_ database: Database) throws(StoreError) {
        let sql = """
            SELECT day, hrv_accepted, hrv_rejected, settle_start_ms, capture_start_ms, capture_end_ms, rr_raw, quality
            FROM measurement WHERE hrv_accepted IS NOT NULL ORDER BY day
            """
        struct Row {
            var day: String
            var accepted: Int
            var rejected: Int
            var marks: PhaseMarks
            var rr: [RRInterval]
            var quality: String
        }
        let rows = try database.prepare(sql).rows { (row) throws(StoreError) -> Row in
            Row(
                day: row.text(0) ?? "", accepted: row.int(1) ?? 0, rejected: row.int(2) ?? 0,
                marks: PhaseMarks(
                    settleStartMs: row.int64(3) ?? 0, captureStartMs: row.int64(4) ?? 0,
                    captureEndMs: row.int64(5) ?? 0),
                rr: try SampleEncoding.decodeRR(row.blob(6) ?? []), quality: row.text(7) ?? "")
        }
        for row in rows {
            guard !row.rr.isEmpty else {
                try database.run(
                    "UPDATE measurement SET rmssd_method = 'external' WHERE day = ?1", [.text(row.day)])
                continue
            }
            let result = recomputed(row.rr, marks: row.marks)
            let m = result.metrics
            guard m.accepted == row.accepted, m.rejected == row.rejected, Quality(code: row.quality) != nil else {
                try database.run(
                    "UPDATE measurement SET rmssd_method = 'accepted_list' WHERE day = ?1", [.text(row.day)])
                continue
            }
            try database.run(
                """
                UPDATE measurement SET rmssd_ms = ?2, rmssd_pairs = ?3, rmssd_method = 'adjacent_pairs', quality = ?4
                WHERE day = ?1
                """,
                [.text(row.day), SQLValue(m.rmssdMs), SQLValue(m.pairs), .text(result.quality.code)])
        }
    }

    /// The window of a stored morning under `rule` (the spec's 20 % rule: what the counts were stored with).
    static func recomputed(
        _ rr: [RRInterval], marks: PhaseMarks, rule: ArtifactRule = .spec20, heartRates: [HeartRateReading] = []
    ) -> HRVWindowResult {
        let fromFile = marks.settleStartMs == 0 && marks.captureStartMs == 0 && marks.captureEndMs == 0
        guard fromFile else {
            return HRVAnalysis.reanalyze(rawRR: rr, marks: marks, rule: rule, heartRates: heartRates)
        }
        let analysis = HRVAnalysis.analyze(rr.map(\.milliseconds), window: .morning, rule: rule)
        return HRVWindowResult(
            metrics: analysis.metrics, quality: analysis.quality, acceptedSumMs: analysis.acceptedSumMs,
            captureStartMs: analysis.captureStartMs ?? 0, captureEndMs: analysis.captureEndMs ?? 0)
    }
}

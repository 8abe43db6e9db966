import RecoveryCore

/// One run of the re-judging job: every stored morning re-judged by a rule at its current detector version.
public struct JudgementJob: Hashable, Sendable {
    public var rule: ArtifactRule
    public var version: Int
    /// When it ran, seconds since the Unix epoch.
    public var ranAt: Int64
    /// Mornings recomputed from their raw RR, and how many of them moved (rMSSD or rejected beats).
    public var mornings: Int
    public var moved: Int
}

extension Store {
    /// Re-judges the stored mornings under `rule` at its current version (docs/artifacts.md, "How each morning was
    /// judged"), once each time the rule or its version changes: a morning judged otherwise (another rule or
    /// version, or before the judgement was recorded) and holding its raw RR is recomputed from it, as the 0004
    /// step did, and the run is logged in `judgement_job` (one row per rule and version: a rule chosen again after
    /// another replaces its row with the new run). Returns the run, or nil when the latest run was this rule and
    /// version (nothing done). Mornings without raw RR keep their values and stay judged as they were, which the
    /// readout says.
    public func rejudge(rule: ArtifactRule, at epochSeconds: Int64) throws(StoreError) -> JudgementJob? {
        try database.transaction { () throws(StoreError) -> JudgementJob? in
            let latest = try database.prepare(
                "SELECT rule, version FROM judgement_job ORDER BY ran_at DESC LIMIT 1"
            ).rows { row in (row.text(0), row.int(1)) }.first
            if let latest, latest.0 == rule.rawValue, latest.1 == rule.version { return nil }
            let other = "artifact_rule IS NOT '\(rule.rawValue)' OR detector_version IS NOT \(rule.version)"
            let counts = try ArtifactRuleRecomputation.recompute(database, rule: rule, only: other, judged: true)
            let job = JudgementJob(
                rule: rule, version: rule.version, ranAt: epochSeconds, mornings: counts.mornings, moved: counts.moved)
            try database.run(
                "INSERT OR REPLACE INTO judgement_job (rule, version, ran_at, mornings, moved) VALUES (?1, ?2, ?3, ?4, ?5)",
                [
                    .text(rule.rawValue), .integer(Int64(rule.version)), .integer(epochSeconds),
                    .integer(Int64(job.mornings)), .integer(Int64(job.moved)),
                ])
            return job
        }
    }

    /// Every run of the re-judging job, oldest first.
    public func judgementJobs() throws(StoreError) -> [JudgementJob] {
        try database.prepare("SELECT rule, version, ran_at, mornings, moved FROM judgement_job ORDER BY ran_at")
            .rows { row in
                JudgementJob(
                    rule: ArtifactRule(rawValue: row.text(0) ?? "") ?? .default, version: row.int(1) ?? 0,
                    ranAt: row.int64(2) ?? 0, mornings: row.int(3) ?? 0, moved: row.int(4) ?? 0)
            }
    }
}

import Foundation
import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// The migration that recomputes stored rMSSD over adjacent pairs (RecoveryDeck spec §5.1), on a database written
/// with the first schema, as a box updated in the field has it.
struct RMSSDMigrationTests {
    /// rMSSD by the old rule: differences between consecutive entries of the accepted list (what was stored).
    static func oldRule(_ accepted: [Double]) -> Double {
        var squares = 0.0
        for i in 1..<accepted.count { squares += (accepted[i] - accepted[i - 1]) * (accepted[i] - accepted[i - 1]) }
        return (squares / Double(accepted.count - 1)).squareRoot()
    }

    /// rMSSD by the pair rule, written independently of the core: replay the capture's beats through the filter and
    /// keep a difference only between two accepted beats with nothing between them.
    static func pairRule(_ m: MorningMeasurement) -> (rmssd: Double, pairs: Int, accepted: [Double]) {
        var filter = ArtifactFilter()
        var previousAccepted: Double?
        var squares = 0.0
        var pairs = 0
        var accepted: [Double] = []
        for rr in m.rawRR where rr.receivedAtMs <= m.marks.captureEndMs {
            let ms = rr.milliseconds
            if rr.receivedAtMs < m.marks.captureStartMs {
                filter.prime(ms)
                continue
            }
            if accepted.count >= 45 && accepted.reduce(0, +) >= 60_000 { break }
            if filter.judge(ms) == .accepted {
                if let p = previousAccepted {
                    squares += (ms - p) * (ms - p)
                    pairs += 1
                }
                previousAccepted = ms
                accepted.append(ms)
            } else {
                previousAccepted = nil
            }
        }
        return ((squares / Double(pairs)).squareRoot(), pairs, accepted)
    }

    /// Writes `m` with the first schema's columns, its rMSSD replaced by `rmssd`.
    static func writeOld(_ m: MorningMeasurement, rmssd: Double?, into database: Database) throws {
        try database.run(
            """
            INSERT INTO measurement (day, started_at, duration_ms, quality, hrv_accepted, hrv_rejected,
                hrv_artifact_ratio, rmssd_ms, orthostatic_status, settle_start_ms, capture_start_ms, capture_end_ms,
                rr_raw, hr_readings, recorded_at)
            VALUES (?1, 0, 0, ?2, ?3, ?4, ?5, ?6, 'skipped', ?7, ?8, ?9, ?10, ?11, 0)
            """,
            [
                .text(m.date.iso), .text(m.quality.code), SQLValue(m.hrv?.accepted), SQLValue(m.hrv?.rejected),
                SQLValue(m.hrv?.artifactRatio), SQLValue(rmssd), .integer(m.marks.settleStartMs),
                .integer(m.marks.captureStartMs), .integer(m.marks.captureEndMs),
                .blob(try SampleEncoding.encode(rr: m.rawRR)), .blob(try SampleEncoding.encode(heartRates: [])),
            ])
    }

    @Test("stored mornings get rMSSD over adjacent pairs from their raw RR; others say which method they used")
    func recomputesFromRawRR() throws {
        let dir = TemporaryDirectory()
        let person = SyntheticPerson(seed: 12)
        // Ectopic beats and detection artifacts, so the two rules differ on most days.
        let options = SyntheticHeart.Options(ectopicProbability: 0.04, artifactProbability: 0.03)
        let mornings = (0..<6).map {
            SyntheticHistory.morning(person: person, day: $0, startedAtEpoch: 1_773_000_000, options: options, rule: .spec20)
        }
        var expected: [LocalDate: (rmssd: Double, pairs: Int)] = [:]
        do {
            let database = try Database(path: dir.databasePath)
            try database.migrate(Array(Schema.migrations.prefix(1)))
            for m in mornings {
                let truth = Self.pairRule(m)
                #expect(truth.accepted.count == m.hrv?.accepted, "the independent replay sees the stored window")
                expected[m.date] = (truth.rmssd, truth.pairs)
                try Self.writeOld(m, rmssd: Self.oldRule(truth.accepted), into: database)
            }
            // A day imported from another tool's export: a value, no raw RR.
            var external = Fixture.morning(LocalDate(year: 2026, month: 2, day: 1)!, rmssd: 55.5, rr: [])
            external.marks = PhaseMarks(settleStartMs: 0, captureStartMs: 0, captureEndMs: 0)
            try Self.writeOld(external, rmssd: 55.5, into: database)
            // A morning whose raw RR cannot reproduce its counts (70 accepted claimed, 80 identical beats given).
            try Self.writeOld(Fixture.morning(LocalDate(year: 2026, month: 2, day: 2)!), rmssd: 48.25, into: database)
            // The spec's rule stays chosen, so the later artifact-rule step recomputes the same values.
            try database.run(
                "INSERT INTO setting (key, value) VALUES (?1, ?2)",
                [.text(SettingKey.artifactRule.rawValue), .text(ArtifactRule.spec20.rawValue)])
        }
        let store = try Store(path: dir.databasePath)
        #expect(try store.appliedMigrations() == Store.knownMigrations)
        var differed = 0
        for m in mornings {
            let stored = try #require(try store.measurement(on: m.date)?.hrv)
            let truth = try #require(expected[m.date])
            #expect(stored.rmssdMethod == .adjacentPairs)
            #expect(stored.pairs == truth.pairs)
            #expect(abs((stored.rmssdMs ?? .nan) - truth.rmssd) <= 1e-9 * truth.rmssd, "\(m.date)")
            // Recomputed by the box's own replay, as a session computes it.
            #expect(stored.rmssdMs == HRVAnalysis.reanalyze(rawRR: m.rawRR, marks: m.marks, rule: .spec20).metrics.rmssdMs)
            if abs(Self.oldRule(Self.pairRule(m).accepted) - truth.rmssd) > 0.01 { differed += 1 }
        }
        #expect(differed >= 3, "the artifacts made the old and new rules differ on most days (\(differed) of 6)")
        let external = try #require(try store.measurement(on: LocalDate(year: 2026, month: 2, day: 1)!)?.hrv)
        #expect(external.rmssdMethod == .external && external.rmssdMs == 55.5)
        let kept = try #require(try store.measurement(on: LocalDate(year: 2026, month: 2, day: 2)!)?.hrv)
        #expect(kept.rmssdMethod == .acceptedList && kept.rmssdMs == 48.25 && kept.pairs == nil)
        // The export says so.
        let json = try store.exportDocument(full: false, generatedAt: 0).json.serialized()
        #expect(json.contains("\"rmssdMethod\":\"accepted_list\"") && json.contains("\"rmssdMethod\":\"external\""))
    }

    @Test("a version 1 export reads back with its rMSSD marked as taken over the accepted list")
    func versionOneExportIsTheOldRule() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.saveMorning(Fixture.morning(), recordedAt: 0)
        var text = try store.exportDocument(full: false, generatedAt: 0).json.serialized()
        #expect(text.contains("\"rmssdMethod\":\"adjacent_pairs\""))
        text = text.replacingOccurrences(of: "\"protocolVersion\":2", with: "\"protocolVersion\":1")
            .replacingOccurrences(of: "\"rmssdMethod\":\"adjacent_pairs\",", with: "")
        let read = try ExportDocument(parsing: text)
        #expect(read.days.first?.measurement?.hrv?.rmssdMethod == .acceptedList)
    }

    @Test("the artifact-rule step recomputes stored mornings from raw RR under the pattern rule and says which moved")
    func artifactRuleRecomputation() throws {
        let dir = TemporaryDirectory()
        let person = SyntheticPerson(seed: 31)
        let options = SyntheticHeart.Options(ectopicProbability: 0.04, artifactProbability: 0.03)
        let mornings = (0..<6).map {
            SyntheticHistory.morning(person: person, day: $0, startedAtEpoch: 1_773_000_000, options: options)
        }
        do {
            // A box with the first three steps: mornings recorded and recomputed under the spec's 20 % rule.
            let database = try Database(path: dir.databasePath)
            try database.migrate(Array(Schema.migrations.prefix(1)))
            for m in mornings {
                let old = HRVAnalysis.reanalyze(rawRR: m.rawRR, marks: m.marks, rule: .spec20)
                var stored = m
                stored.hrv = old.metrics
                try Self.writeOld(stored, rmssd: old.metrics.rmssdMs, into: database)
            }
            try database.migrate(Array(Schema.migrations.prefix(3)))
        }
        let store = try Store(path: dir.databasePath)
        #expect(try store.appliedMigrations() == Store.knownMigrations)
        let moved = try store.recomputedDays()
        var expectedMoved: [String] = []
        for m in mornings {
            let before = HRVAnalysis.reanalyze(rawRR: m.rawRR, marks: m.marks, rule: .spec20).metrics
            let after = HRVAnalysis.reanalyze(rawRR: m.rawRR, marks: m.marks, rule: .pattern).metrics
            let stored = try #require(try store.measurement(on: m.date)?.hrv)
            #expect(stored.rmssdMs == after.rmssdMs && stored.rejected == after.rejected, "\(m.date)")
            if before.rmssdMs != after.rmssdMs || before.rejected != after.rejected {
                expectedMoved.append(m.date.iso)
                let day = try #require(moved.first { $0.day == m.date.iso })
                #expect(day.beforeRMSSDMs == before.rmssdMs && day.afterRMSSDMs == after.rmssdMs)
                #expect(day.rule == "pattern")
            }
        }
        #expect(moved.map(\.day) == expectedMoved)
        #expect(!moved.isEmpty, "ectopic beats and artifacts make the rules differ on some day")
    }
}

import Foundation
import JSON
import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// How a morning's beats were judged (docs/artifacts.md, "Provenance") is stored, exported and restored with it.
@Suite struct ArtifactJudgementStoreTests {
    static func judged() -> MorningMeasurement {
        var morning = Fixture.morning(rr: (0..<90).map { UInt16(900 + $0 * 3) })
        var tally = ArtifactTally(rule: .pattern)
        tally.missed = 2
        tally.uncertain = 1
        morning.hrv?.judgement = tally
        return morning
    }

    @Test("a saved morning reads back with its rule, detector version and rejected beats by reason")
    func storedAndRead() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let morning = Self.judged()
        try store.saveMorning(morning, recordedAt: 1_773_122_600)
        let read = try #require(try store.measurement(on: Fixture.day))
        #expect(read == morning)
        #expect(read.hrv?.judgement?.version == ArtifactRule.pattern.version)
        #expect(read.hrv?.judgement?.reasonsText == "2 missed, 1 uncertain")
        // A morning saved without a judgement (imported, or from before it was recorded) reads back without one.
        try store.saveMorning(Fixture.morning(Fixture.day.adding(days: 1)), recordedAt: 1_773_209_000)
        #expect(try store.measurement(on: Fixture.day.adding(days: 1))?.hrv?.judgement == nil)
    }

    @Test("the export carries judgedBy, and a restore reads it back; an unknown reason is refused with where")
    func exportedAndRestored() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.saveMorning(Self.judged(), recordedAt: 1_773_122_600)
        let text = try store.exportDocument(full: true, generatedAt: 1_773_200_000).json.serialized(pretty: true)
        #expect(text.contains("\"judgedBy\""))
        #expect(text.contains("\"missed\" : 2") || text.contains("\"missed\": 2"))
        try store.deleteAll()
        try store.restore(try ExportDocument(parsing: text), replace: false)
        #expect(try store.measurement(on: Fixture.day)?.hrv?.judgement == Self.judged().hrv?.judgement)
        let bad = text.replacingOccurrences(of: "\"uncertain\"", with: "\"guessed\"")
        #expect(bad != text)
        #expect(throws: ExportError.self) { _ = try ExportDocument(parsing: bad) }
    }
}

/// Re-judging the stored mornings after a change of rule or detector: a versioned, logged job that runs once.
@Suite struct RejudgeJobTests {
    @Test("mornings judged otherwise are recomputed from raw RR once per rule and version, and the run is logged")
    func runsOncePerVersion() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        // Two mornings with raw RR: one judged before judgements were recorded, one by an older detector.
        let rr = (0..<90).map { UInt16(1000 + ($0 % 3) * 20) }
        try store.saveMorning(Fixture.morning(Fixture.day, rr: rr), recordedAt: 1)
        var older = Fixture.morning(Fixture.day.adding(days: 1), rr: rr)
        older.hrv?.judgement = ArtifactTally(rule: .pattern, version: 1)
        try store.saveMorning(older, recordedAt: 2)
        // An imported value without raw RR keeps its values and stays unjudged.
        try store.saveMorning(Fixture.morning(Fixture.day.adding(days: 2), rr: []), recordedAt: 3)

        let job = try #require(try store.rejudge(rule: .pattern, at: 1_773_300_000))
        #expect(job.mornings == 2 && job.version == ArtifactRule.pattern.version && job.ranAt == 1_773_300_000)
        for offset in 0...1 {
            let judged = try store.measurement(on: Fixture.day.adding(days: offset))?.hrv?.judgement
            #expect(judged?.rule == .pattern && judged?.version == ArtifactRule.pattern.version)
        }
        #expect(try store.measurement(on: Fixture.day.adding(days: 2))?.hrv?.judgement == nil)
        // Once per version: the second start does nothing; another rule is another job.
        let again = try store.rejudge(rule: .pattern, at: 1_773_400_000)
        #expect(again == nil)
        let spec = try #require(try store.rejudge(rule: .spec20, at: 1_773_500_000))
        #expect(spec.mornings == 2)
        #expect(try store.judgementJobs().map(\.rule) == [.pattern, .spec20])
        // Back to the first rule: the mornings spec-20 judged are judged again, and the log says when.
        let back = try #require(try store.rejudge(rule: .pattern, at: 1_773_600_000))
        #expect(back.mornings == 2)
        let judged = try store.measurement(on: Fixture.day)?.hrv?.judgement
        #expect(judged?.rule == .pattern)
        #expect(try store.judgementJobs().map(\.rule) == [.spec20, .pattern])
        #expect(try store.rejudge(rule: .pattern, at: 1_773_700_000) == nil)
    }
}

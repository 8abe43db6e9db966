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

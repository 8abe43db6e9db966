import Foundation
import JSON
import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// Restore: the box's own export brings the database back (after a new SD card or `delete --all`).
struct StoreRestoreTests {
    /// A database holding every kind of thing an export carries: check-ins with habits, caffeine, meal and
    /// note, measurements with raw RR and BPM, an HR-only morning, an imported day, settings, analytics, and
    /// two experiments: one stopped early (its stop day and time), one still running.
    static func filled(_ dir: TemporaryDirectory) throws -> Store {
        let store = try StoreExportTests.filledStore(dir)
        try store.setHabitList(["alcohol", "sauna"])
        try store.setSetting(.strapAddress, "A0:9E:1A:12:34:56")
        try store.setSetting(.strapAddressType, "public")
        try store.setSetting(.reminderTime, "06:45")
        try store.saveQuestionnaire(
            Fixture.questionnaire(Fixture.day.adding(days: 3), habits: ["sauna"]), recordedAt: 20)
        for e in Self.experiments { try store.addExperiment(e) }
        try store.stopExperiment(id: 1, firstMorningLeftOut: Fixture.day.adding(days: 2), at: 1_773_150_000)
        return store
    }

    /// A seed above Int64.max, so the text form is what carries it exactly.
    static let experiments = [
        StoredExperiment(
            habit: "alcohol", outcome: "rmssd", firstDay: Fixture.day, mornings: 4, block: 2,
            seed: 0xF00D_0000_0000_0001, startedAt: 1_773_100_000, arms: ["habit", "without", "without", "habit"]),
        StoredExperiment(
            habit: "sauna", outcome: "gapPeak", firstDay: Fixture.day.adding(days: 4), mornings: 4, block: 4,
            seed: 7, startedAt: 1_773_160_000, arms: ["without", "habit", "habit", "without"]),
    ]

    @Test("export --full, delete --all, restore, export --full: the same document, box days still the box's")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        let store = try Self.filled(dir)
        let before = try store.exportDocument(full: true, generatedAt: 1_773_200_000)
        let text = before.json.serialized(pretty: true)
        try store.deleteAll()
        #expect(try store.allDays().isEmpty && store.holdsNoData())
        try store.restore(try ExportDocument(parsing: text), replace: false)
        let after = try store.exportDocument(full: true, generatedAt: 1_773_200_000)
        #expect(after.json.serialized(pretty: true) == text)
        // What the issue saw lost through the CSV: raw RR, settings, notes, habits, caffeine, box days.
        let days = try store.allDays()
        #expect(days.first { $0.date == Fixture.day }?.measurement?.rawRR.count == 75)
        #expect(days.first { $0.date == Fixture.day }?.questionnaire?.notes == "tired, \"very\"\nsecond line")
        #expect(days.first { $0.date == Fixture.day.adding(days: 3) }?.questionnaire?.caffeineMg == 120)
        #expect(days.filter(\.imported).map(\.date) == [Fixture.day.adding(days: -5)])
        #expect(try store.settings().strapAddress == "A0:9E:1A:12:34:56")
        #expect(try store.habitList() == ["alcohol", "sauna"])
        #expect(try store.events() == before.analytics && !before.analytics.isEmpty)
        // The experiments as started: ids, seed, schedule; the first still stopped, the second still running.
        let experiments = try store.experiments()
        #expect(experiments.map(\.id) == [1, 2])
        #expect(experiments.map(\.arms) == Self.experiments.map(\.arms))
        #expect(experiments.map(\.seed) == [0xF00D_0000_0000_0001, 7])
        #expect(experiments[0].stoppedDay == Fixture.day.adding(days: 2) && experiments[0].stoppedAt == 1_773_150_000)
        #expect(experiments[1].stoppedDay == nil && experiments[1].stoppedAt == nil)
        #expect(experiments[1].isRunning(on: Fixture.day.adding(days: 5)))
    }

    @Test("a full export written before experiments were exported restores, with no experiment")
    func withoutExperimentsKey() throws {
        let dir = TemporaryDirectory()
        let store = try Self.filled(dir)
        guard case .object(let members) = try store.exportDocument(full: true, generatedAt: 7).json else {
            Issue.record("the export is not an object")
            return
        }
        let older = JSONValue.object(members.filter { $0.0 != "experiments" }).serialized()
        #expect(!older.contains("experiments"))
        let document = try ExportDocument(parsing: older)
        try store.restore(document, replace: true)
        #expect(try store.experiments().isEmpty)
        #expect(try store.allDays().count == document.days.count && !document.days.isEmpty)
        #expect(try store.habitList() == ["alcohol", "sauna"])
    }

    @Test("an experiment whose arms do not match its mornings is refused with a sentence that says where")
    func experimentArmsMismatch() throws {
        var json = try Self.filled(TemporaryDirectory()).exportDocument(full: true, generatedAt: 7).json
            .serialized()
        json = json.replacingOccurrences(of: #"["habit","without","without","habit"]"#, with: #"["habit"]"#)
        do {
            _ = try ExportDocument(parsing: json)
            Issue.record("a schedule of one arm for four mornings was read")
        } catch {
            #expect(error.description == "The export's experiments[0].arms has 1 arms for 4 mornings.")
        }
    }

    @Test("a new box whose daemon has given the morning reminder holds no data: its first restore needs no replace")
    func reminderBookkeepingIsNoData() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.updateSettings([.reminderShownOn]) { $0.reminderShownOn = LocalDate(iso: "2026-03-10") }
        try store.appendEvent(
            AnalyticsEvent(
                at: 1_773_123_000, day: LocalDate(iso: "2026-03-10"), kind: .reminderShown, value: nil,
                payload: "2026-03-10"))
        let empty = try store.holdsNoData()
        #expect(empty)
        let document = try Self.filled(TemporaryDirectory()).exportDocument(full: true, generatedAt: 7)
        try store.restore(document, replace: false)
        #expect(try !store.allDays().isEmpty)
        // A setting the person chose is data.
        let otherDir = TemporaryDirectory()
        let other = try Store(path: otherDir.databasePath)
        try other.updateSettings([.displayName]) { $0.displayName = "Zach" }
        let held = try other.holdsNoData()
        #expect(!held)
    }

    @Test("a database holding only an experiment holds data: restoring over it needs replace")
    func experimentIsData() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.addExperiment(Self.experiments[1])
        let holdsNoData = try store.holdsNoData()
        #expect(!holdsNoData)
        let document = try Self.filled(TemporaryDirectory()).exportDocument(full: true, generatedAt: 7)
        #expect(throws: StoreError.self) { try store.restore(document, replace: false) }
        #expect(try store.experiments().count == 1)
    }

    @Test("restoring over data needs replace; without it nothing changes")
    func replaceRule() throws {
        let dir = TemporaryDirectory()
        let store = try Self.filled(dir)
        let document = try store.exportDocument(full: true, generatedAt: 7)
        let other = TemporaryDirectory()
        let second = try Store(path: other.databasePath)
        try second.saveQuestionnaire(Fixture.questionnaire(Fixture.day.adding(days: 40)), recordedAt: 1)
        let held = try second.exportDocument(full: true, generatedAt: 7)
        #expect(throws: StoreError.self) { try second.restore(document, replace: false) }
        #expect(try second.exportDocument(full: true, generatedAt: 7) == held)
        try second.restore(document, replace: true)
        #expect(try second.exportDocument(full: true, generatedAt: 7) == document)
    }

    @Test("a value the schema refuses rolls the whole restore back")
    func badValueChangesNothing() throws {
        let dir = TemporaryDirectory()
        let store = try Self.filled(dir)
        var document = try store.exportDocument(full: true, generatedAt: 7)
        let held = document
        document.days[document.days.count - 1].questionnaire?.caffeineMg = 9_000
        #expect(throws: StoreError.self) { try store.restore(document, replace: true) }
        #expect(try store.exportDocument(full: true, generatedAt: 7) == held)
    }

    @Test("an export from a newer RecoveryDeck is refused with a sentence that says so")
    func newerVersion() throws {
        var json = try Self.filled(TemporaryDirectory()).exportDocument(full: true, generatedAt: 7).json
        guard case .object(var members) = json else { return }
        members[0].1 = .integer(Int64(ExportDocument.protocolVersion + 1))
        json = .object(members)
        #expect(throws: ExportError.self) { _ = try ExportDocument(parsing: json.serialized()) }
        do { _ = try ExportDocument(parsing: json.serialized()) } catch {
            #expect(
                error.description
                    == "The export was written by a newer RecoveryDeck (protocolVersion \(ExportDocument.protocolVersion + 1); "
                    + "this one reads up to \(ExportDocument.protocolVersion)): update RecoveryDeck first."
            )
        }
    }

    @Test("a version 1 export's rMSSD (over the accepted list) is recomputed over adjacent pairs from its raw RR")
    func versionOneIsRecomputed() throws {
        let person = SyntheticPerson(seed: 12)
        let options = SyntheticHeart.Options(ectopicProbability: 0.04, artifactProbability: 0.03)
        let mornings = (0..<4).map {
            SyntheticHistory.morning(person: person, day: $0, startedAtEpoch: 1_773_000_000, options: options, rule: .spec20)
        }
        let sourceDir = TemporaryDirectory()
        let source = try Store(path: sourceDir.databasePath)
        for (i, m) in mornings.enumerated() { try source.saveMorning(m, recordedAt: Int64(i)) }
        // The same document as the box wrote it before protocolVersion 2: no method or pairs, and rMSSD by
        // the old rule (consecutive entries of the accepted list).
        func versionOne(_ json: JSONValue) -> JSONValue {
            switch json {
            case .object(let members):
                return .object(
                    members.compactMap { key, value in
                        switch key {
                        case "protocolVersion": return (key, .integer(1))
                        case "rmssdMethod", "rmssdPairs": return nil
                        case "rmssdMs": return (key, .number(99.5))
                        default: return (key, versionOne(value))
                        }
                    })
            case .array(let items): return .array(items.map(versionOne))
            default: return json
            }
        }
        let text = versionOne(try source.exportDocument(full: true, generatedAt: 7).json).serialized()
        let document = try ExportDocument(parsing: text)
        #expect(document.days.allSatisfy { $0.measurement?.hrv?.rmssdMethod == .acceptedList })
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.restore(document, replace: false)
        for m in mornings {
            let truth = RMSSDMigrationTests.pairRule(m)
            let hrv = try #require(try store.measurement(on: m.date)?.hrv)
            #expect(hrv.rmssdMethod == .adjacentPairs)
            #expect(abs((hrv.rmssdMs ?? 0) - truth.rmssd) <= 1e-9 * truth.rmssd, "\(m.date.iso)")
            #expect(hrv.pairs == truth.pairs)
        }
    }

    @Test("a plain export brings back the days and the habit list, without samples")
    func plainExport() throws {
        let dir = TemporaryDirectory()
        let store = try Self.filled(dir)
        let plain = try store.exportDocument(full: false, generatedAt: 7)
        try store.deleteAll()
        try store.restore(try ExportDocument(parsing: plain.json.serialized()), replace: false)
        #expect(try store.exportDocument(full: false, generatedAt: 7) == plain)
        #expect(try store.habitList() == ["alcohol", "sauna"])
        #expect(try store.events().isEmpty)
    }
}

/// Restore as the CLI runs it: the document streamed in small chunks, checked and written one element at a time.
struct StreamingRestoreTests {
    static func reader(_ text: String, chunkSize: Int = 97) -> ExportDocumentReader {
        ExportDocumentReader(JSONStream(bytes: Array(text.utf8), chunkSize: chunkSize))
    }

    @Test("a real export streamed back in 97-byte chunks restores to the same document, with its counts")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        let store = try StoreRestoreTests.filled(dir)
        let before = try store.exportDocument(full: true, generatedAt: 1_773_200_000)
        let text = before.json.serialized(pretty: true)
        try store.deleteAll()
        var reader = Self.reader(text)
        let summary = try store.restore(&reader, replace: false)
        #expect(try store.exportDocument(full: true, generatedAt: 1_773_200_000).json.serialized(pretty: true) == text)
        #expect(summary.days == before.days.count && summary.experiments == 2 && summary.full)
        #expect(summary.rrIntervals == before.days.reduce(0) { $0 + ($1.measurement?.rawRR.count ?? 0) })
    }

    @Test("a day given twice is refused with one sentence and changes nothing, however its copies differ")
    func dayGivenTwice() throws {
        let dir = TemporaryDirectory()
        let store = try StoreRestoreTests.filled(dir)
        let held = try store.exportDocument(full: true, generatedAt: 7)
        var document = held
        // The second copy carries only a check-in with other scores: merged, the day would be neither copy.
        var copy = DayRecord(date: document.days[0].date, questionnaire: Fixture.questionnaire(document.days[0].date))
        copy.questionnaire?.notes = "the second copy"
        document.days.append(copy)
        let refusal = Self.documentRefusal(restoring: document.json.serialized(), into: store)
        #expect(refusal?.description == "The export's days give \(copy.date.iso) twice; an export holds each day once.")
        #expect(try store.exportDocument(full: true, generatedAt: 7) == held)
    }

    @Test("a key given twice inside a day (nested) is refused as the top level's are, and changes nothing")
    func nestedDuplicateKey() throws {
        let dir = TemporaryDirectory()
        let store = try StoreRestoreTests.filled(dir)
        let held = try store.exportDocument(full: true, generatedAt: 7)
        let text = held.json.serialized()
        let range = try #require(text.range(of: "\"fatigue\":"))
        let doubled = text.replacingCharacters(in: range, with: "\"fatigue\":1,\"fatigue\":")
        let refusal = Self.documentRefusal(restoring: doubled, into: store)
        #expect(refusal?.description.contains("the key \"fatigue\" appears twice in one object") == true, "\(String(describing: refusal))")
        #expect(try store.exportDocument(full: true, generatedAt: 7) == held)
    }

    /// The document's refusal when `text` is restored over `store`; nil, with the issue recorded, when it was
    /// restored or refused for another reason.
    static func documentRefusal(restoring text: String, into store: Store, chunkSize: Int = 97) -> ExportError? {
        var reader = Self.reader(text, chunkSize: chunkSize)
        do {
            _ = try store.restore(&reader, replace: true)
            Issue.record("the document was restored")
        } catch {
            guard case .document(let e) = error else {
                Issue.record("\(error)")
                return nil
            }
            return e
        }
        return nil
    }

    /// A long export: `count` days with a check-in each, after the store's own.
    static func longExport(_ store: Store, days count: Int) throws -> String {
        var document = try store.exportDocument(full: true, generatedAt: 1_773_200_000)
        let last = document.days.map(\.date).max()!
        for i in 1...count {
            document.days.append(DayRecord(date: last.adding(days: i), questionnaire: Fixture.questionnaire(last.adding(days: i))))
        }
        return document.json.serialized()
    }

    @Test("a bad element late in a long file (day 2,990 of 3,000) changes nothing, and the sentence names it")
    func badElementLate() throws {
        let dir = TemporaryDirectory()
        let store = try StoreRestoreTests.filled(dir)
        let held = try store.exportDocument(full: true, generatedAt: 7)
        var text = try Self.longExport(store, days: 3_000)
        // The 2,990th added day's fatigue: the last occurrences are the added days, in order.
        let marker = "\"fatigue\":5"
        var ranges: [Range<String.Index>] = []
        var from = text.startIndex
        while let r = text.range(of: marker, range: from..<text.endIndex) {
            ranges.append(r)
            from = r.upperBound
        }
        text.replaceSubrange(ranges[ranges.count - 11], with: "\"fatigue\":9")
        let e = Self.documentRefusal(restoring: text, into: store, chunkSize: 4096)
        #expect(e?.path.hasSuffix(".questionnaire.fatigue") == true && e?.reason.contains("not 9") == true, "\(String(describing: e))")
        #expect(try store.exportDocument(full: true, generatedAt: 7) == held)
    }

    @Test("a truncated document, a duplicated member and a day element over its bound change nothing")
    func refusals() throws {
        let dir = TemporaryDirectory()
        let store = try StoreRestoreTests.filled(dir)
        let held = try store.exportDocument(full: true, generatedAt: 7)
        let text = held.json.serialized()
        let big = String(repeating: "1000,", count: ExportDocumentReader.maximumDayBytes / 5) + "1000"
        let cases: [(String, String)] = [
            (String(text.dropLast(40)), "The export is not JSON (The JSON is malformed at byte"),
            (String(text.dropLast()) + ",\"full\":true}", "The export's full appears twice."),
            (
                #"{"protocolVersion":2,"generatedAt":7,"full":false,"habits":[],"days":[{"rr":["# + big + "]}]}",
                "The export's days[0] is larger than 4 MiB"
            ),
            (#"{"protocolVersion":2,"generatedAt":7,"full":false,"habits":[]}"#, "The export's days is missing."),
        ]
        for (document, sentence) in cases {
            var reader = Self.reader(document, chunkSize: 1000)
            do {
                _ = try store.restore(&reader, replace: true)
                Issue.record("restored: \(sentence)")
            } catch {
                guard case .document(let e) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(e.description.hasPrefix(sentence), "\(e)")
            }
            #expect(try store.exportDocument(full: true, generatedAt: 7) == held)
        }
    }

    @Test("members in any order: days before generatedAt and full still restore the same document")
    func memberOrder() throws {
        let dir = TemporaryDirectory()
        let store = try StoreRestoreTests.filled(dir)
        let before = try store.exportDocument(full: true, generatedAt: 1_773_200_000)
        guard case .object(let members) = before.json else { return }
        let reordered = JSONValue.object(members.reversed())
        try store.deleteAll()
        var reader = Self.reader(reordered.serialized())
        _ = try store.restore(&reader, replace: false)
        #expect(try store.exportDocument(full: true, generatedAt: 1_773_200_000) == before)
    }
}

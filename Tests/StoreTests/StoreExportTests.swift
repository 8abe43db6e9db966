import Foundation
import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// Export (spec §7.4: JSON with protocolVersion and a documented schema; CSV one row per day) and
/// delete (spec §11.2 "Delete all data").
struct StoreExportTests {
    static func filledStore(_ dir: TemporaryDirectory) throws -> Store {
        let store = try Store(path: dir.databasePath)
        try store.setSetting(.displayName, "Zach")
        let d = Fixture.day
        try store.saveQuestionnaire(Fixture.questionnaire(d, notes: "tired, \"very\"\nsecond line"), recordedAt: 10)
        try store.saveMorning(Fixture.morning(d, rr: (0..<75).map { UInt16(980 + ($0 * 37) % 90) }), recordedAt: 11)
        try store.saveQuestionnaire(Fixture.questionnaire(d.adding(days: 1), habits: []), recordedAt: 12)
        try store.saveMorning(Fixture.degradedMorning(d.adding(days: 2)), recordedAt: 13)
        try store.saveImportedDays(
            [
                DayRecord(
                    date: d.adding(days: -5), measurement: Fixture.morning(d.adding(days: -5), orthostatic: .skipped))
            ],
            source: "elite-hrv", recordedAt: 14)
        return store
    }

    @Test("a full JSON export reads back to exactly the stored days, settings and analytics (spec §7.4)")
    func fullJSONRoundTrip() throws {
        let dir = TemporaryDirectory()
        let store = try Self.filledStore(dir)
        let document = try store.exportDocument(full: true, generatedAt: 1_773_200_000)
        let text = document.json.serialized(pretty: true)
        let read = try ExportDocument(parsing: text)
        #expect(read == document)
        let stored = try store.allDays()
        #expect(read.days == stored)
        #expect(read.days.first { $0.date == Fixture.day }?.measurement?.rawRR.count == 75)
        let events = try store.events()
        #expect(read.analytics == events)
        #expect(read.settings == ["display_name": "Zach"])
        #expect(text.hasPrefix("{\n  \"protocolVersion\": 2,"))
    }

    @Test("a plain JSON export leaves out raw samples, settings and analytics; the numbers are the same")
    func plainJSON() throws {
        let dir = TemporaryDirectory()
        let store = try Self.filledStore(dir)
        let json = try store.exportDocument(full: false, generatedAt: 5).json
        #expect(json["analytics"] == nil && json["settings"] == nil)
        let day = try #require(json["days"]?.arrayValue?.first { $0["date"] == .string("2026-03-10") })
        #expect(day["measurement"]?["rr"] == nil)
        #expect(day["measurement"]?["hrv"]?["rmssdMs"] == .number(48.25))
        #expect(day["questionnaire"]?["subjectiveMean"] == .number(5.2))
        #expect(day["measurement"]?["orthostatic"]?["gapPeak"] == .number(39.5))
        let degraded = try #require(json["days"]?.arrayValue?.first { $0["date"] == .string("2026-03-12") })
        #expect(degraded["measurement"]?["hrv"] == .null, "missing rMSSD is null, never 0")
        let read = try ExportDocument(parsing: json.serialized())
        let stored = try store.allDays()
        #expect(read.days.map(\.date) == stored.map(\.date))
        #expect(read.days.compactMap(\.measurement).allSatisfy { $0.rawRR.isEmpty })
    }

    @Test("reading an export names the field that is wrong, in one sentence")
    func exportErrors() throws {
        let good = ExportDocument(
            generatedAt: 1, full: false, habits: [],
            days: [DayRecord(date: Fixture.day, questionnaire: Fixture.questionnaire())])
        var text = good.json.serialized()
        #expect(try ExportDocument(parsing: text) == good)
        text = text.replacingOccurrences(of: "\"fatigue\":5", with: "\"fatigue\":8")
        #expect {
            _ = try ExportDocument(parsing: text)
        } throws: { error in
            "\(error)" == "The export's days[0].questionnaire.fatigue must be a whole number from 1 to 7, not 8 (the morning of \(Fixture.day.iso))."
        }
        #expect(throws: ExportError.self) { _ = try ExportDocument(parsing: "{\"protocolVersion\": 3}") }
        #expect(throws: ExportError.self) { _ = try ExportDocument(parsing: "[1,") }
    }

    @Test("CSV has a header and one row per day, quotes commas, quotes and line breaks (RFC 4180)")
    func csv() throws {
        let dir = TemporaryDirectory()
        let store = try Self.filledStore(dir)
        let csv = try store.exportCSV()
        #expect(csv.hasPrefix(DayTable.columns.joined(separator: ",") + "\n"))
        #expect(csv.contains("\"tired, \"\"very\"\"\nsecond line\""))
        let row = try #require(csv.split(separator: "\n").first { $0.hasPrefix("2026-03-10,") })
        #expect(row.hasPrefix("2026-03-10,false,5,6,4,5,6,5.2,alcohol,14:30,120,19:45,"))
        let degraded = try #require(csv.split(separator: "\n").first { $0.hasPrefix("2026-03-12,") })
        let cells = degraded.split(separator: ",", omittingEmptySubsequences: false)
        #expect(cells.count == DayTable.columns.count)
        #expect(cells[DayTable.columns.firstIndex(of: "rmssd_ms")!] == "", "missing rMSSD is an empty cell")
        #expect(cells[DayTable.columns.firstIndex(of: "mean_hr_bpm")!] == "61.5")
        // Days: 03-05 (imported), 03-10, 03-11, 03-12 = 4 rows + header; the note adds one physical line.
        #expect(csv.split(separator: "\n").count == 6)
    }
}

/// DESIGN §4 / issue: after delete-all no byte of a known value remains in the file.
struct DeleteAllTests {
    static let note = "QUOKKA-7731-ZEBRA-nightshift"
    static let name = "Marguerite-Quokkasdottir"
    static let rr: [UInt16] = (0..<64).map { $0 % 2 == 0 ? 0x1357 : 0x2468 }

    /// The first six encoded RR records of the fixture: 36 bytes found nowhere else.
    static var rrPattern: [UInt8] {
        let intervals = rr.prefix(6).enumerated().map { RRInterval(raw: $1, receivedAtMs: Int64($0) * 1000 + 812) }
        return Array((try! SampleEncoding.encode(rr: Array(intervals))).dropFirst())
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return false }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first, Array(haystack[i..<i + needle.count]) == needle { return true }
            i += 1
        }
        return false
    }

    /// Which of the known values appear in the database, -wal or -shm file.
    static func traces(_ path: String) -> [String] {
        var found: [String] = []
        for suffix in ["", "-wal", "-shm"] {
            guard let data = FileManager.default.contents(atPath: path + suffix) else { continue }
            let bytes = [UInt8](data)
            if contains(bytes, Array(note.utf8)) { found.append("note in \(suffix.isEmpty ? "db" : suffix)") }
            if contains(bytes, Array(name.utf8)) { found.append("name in \(suffix.isEmpty ? "db" : suffix)") }
            if contains(bytes, rrPattern) { found.append("RR in \(suffix.isEmpty ? "db" : suffix)") }
        }
        return found
    }

    @Test("after delete-all, no byte of the note, the name or the RR pattern remains in db, -wal or -shm")
    func noKnownByteRemains() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.setSetting(.displayName, Self.name)
        for i in 0..<30 {
            let d = Fixture.day.adding(days: i)
            try store.saveQuestionnaire(Fixture.questionnaire(d, notes: Self.note), recordedAt: 1)
            try store.saveMorning(Fixture.morning(d, rr: Self.rr), recordedAt: 2)
        }
        // Remeasure and delete a day too, so old versions of pages exist in the log and the free list.
        try store.saveMorning(Fixture.morning(Fixture.day, rr: Self.rr), recordedAt: 3)
        try store.deleteDay(Fixture.day.adding(days: 3))
        let before = Self.traces(dir.databasePath)
        #expect(before.contains { $0.hasPrefix("note") } && before.contains { $0.hasPrefix("RR") })
        #expect(before.contains { $0.hasPrefix("name") }, "the scan must see the values before deleting: \(before)")

        try store.deleteAll()
        #expect(Self.traces(dir.databasePath) == [], "still open")
        #expect(try store.allDays().isEmpty && store.events().isEmpty && store.allSettings().isEmpty)
        #expect(try store.appliedMigrations() == Store.knownMigrations, "the schema stays")
        // The store remains usable.
        try store.saveQuestionnaire(Fixture.questionnaire(), recordedAt: 4)
        #expect(try store.hasQuestionnaire(on: Fixture.day))
    }
}

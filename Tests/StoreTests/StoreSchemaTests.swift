import CSQLite
import Foundation
import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// DESIGN §4 "Store": one SQLite file, WAL, synchronous=FULL, foreign keys, ordered migrations
/// recorded in the database, file mode 0600; spec §9.1 scores 1–7.
struct StoreSchemaTests {
    @Test("a new database records every migration in order, and reopening applies none twice (DESIGN §4)")
    func migrationsAreRecordedOnce() throws {
        let dir = TemporaryDirectory()
        let first = try Store(path: dir.databasePath)
        #expect(try first.appliedMigrations() == Store.knownMigrations)
        let second = try Store(path: dir.databasePath)
        #expect(try second.appliedMigrations() == Store.knownMigrations)
        let count = try second.database.prepare("SELECT count(*) FROM schema_migrations").rows { $0.int(0) }
        #expect(count == [Store.knownMigrations.count])
    }

    @Test("a database written by a newer program (unknown migration) is refused with a sentence, unchanged")
    func newerSchemaIsRefused() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try Store(path: dir.databasePath)
            try store.database.run(
                "INSERT INTO schema_migrations (identifier, applied_at) VALUES ('9999-from-the-future', 0)")
        }
        #expect {
            _ = try Store(path: dir.databasePath)
        } throws: { error in
            "\(error)".contains("newer RecoveryDeck") && "\(error)".contains("9999-from-the-future")
        }
    }

    @Test("connections run in WAL mode with synchronous=FULL, foreign keys and secure_delete on (DESIGN §4)")
    func pragmas() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        func pragma(_ name: String) throws -> String {
            try store.database.prepare("PRAGMA \(name)").rows { $0.text(0) ?? "" }.first ?? ""
        }
        #expect(try pragma("journal_mode") == "wal")
        #expect(try pragma("synchronous") == "2")  // FULL
        #expect(try pragma("foreign_keys") == "1")
        #expect(try pragma("secure_delete") == "1")
    }

    @Test("the database, -wal and -shm files are mode 0600, and a looser existing file is tightened")
    func fileModes() throws {
        let dir = TemporaryDirectory()
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        let store = try Store(path: dir.databasePath)
        try store.saveQuestionnaire(Fixture.questionnaire(), recordedAt: 1)
        for suffix in ["", "-wal", "-shm"] {
            let path = dir.databasePath + suffix
            #expect(FileManager.default.fileExists(atPath: path), "\(suffix) missing while open")
            let actual = try mode(path)
            #expect(actual == 0o600, "\(path) is \(String(actual, radix: 8))")
        }
        let loose = dir.url.appendingPathComponent("loose.db").path
        _ = FileManager.default.createFile(atPath: loose, contents: nil, attributes: [.posixPermissions: 0o644])
        _ = try Store(path: loose)
        #expect(try mode(loose) == 0o600)
    }

    @Test("each 1–7 score column rejects 0 and 8 and accepts 1 and 7 (spec §9.1; CHECK constraints)")
    func scoreChecks() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let columns = ["fatigue", "mood", "soreness", "stress", "sleep"]
        var day = 1
        for column in columns {
            for (value, allowed) in [(0, false), (8, false), (1, true), (7, true)] {
                let values = columns.map { $0 == column ? value : 4 }
                let sql = """
                    INSERT INTO questionnaire (day, fatigue, mood, soreness, stress, sleep, recorded_at)
                    VALUES ('2026-01-\(day < 10 ? "0" : "")\(day)',
                        \(values.map(String.init).joined(separator: ", ")), 0)
                    """
                day += 1
                do {
                    try store.database.run(sql)
                    #expect(allowed, "\(column) = \(value) was stored")
                } catch {
                    #expect(!allowed, "\(column) = \(value) was refused: \(error)")
                    #expect(error.isConstraintViolation)
                    #expect(error.message.contains(column))
                }
            }
        }
    }

    @Test("a raw-sample blob has the documented layout: version byte, then u16 value and u32 ms, little-endian")
    func sampleEncodingLayout() throws {
        let bytes = try SampleEncoding.encode(rr: [
            RRInterval(raw: 0x0401, receivedAtMs: 0x0102_0304), RRInterval(raw: 1000, receivedAtMs: 5),
        ])
        #expect(bytes == [0x01, 0x01, 0x04, 0x04, 0x03, 0x02, 0x01, 0xE8, 0x03, 0x05, 0x00, 0x00, 0x00])
        #expect(try SampleEncoding.decodeRR(bytes).map(\.raw) == [0x0401, 1000])
        #expect(try SampleEncoding.decodeRR([0x01]).isEmpty)
        #expect(throws: StoreError.self) { try SampleEncoding.decodeRR([0x01, 0x00]) }
        #expect(throws: StoreError.self) { try SampleEncoding.decodeRR([0x02]) }
        #expect(throws: StoreError.self) { try SampleEncoding.encode(rr: [RRInterval(raw: 1, receivedAtMs: -1)]) }
    }
}

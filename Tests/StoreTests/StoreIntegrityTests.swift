import Foundation
import TestSupport
import Testing

@testable import Store

/// `Store.integrityCheck(ofFile:)`, which `recoverydeck doctor` runs: SQLite's own verdict on a real file,
/// read without changing it.
struct StoreIntegrityTests {
    @Test("a healthy database reads \"ok\" and is left byte-identical")
    func healthyFileIsOK() throws {
        let dir = TemporaryDirectory()
        do { _ = try StoreExportTests.filledStore(dir) }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.databasePath))
        #expect(Store.integrityCheck(ofFile: dir.databasePath) == "ok")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.databasePath)) == before)
    }

    @Test("a page overwritten with garbage is reported, not \"ok\"")
    func damagedPageIsReported() throws {
        let dir = TemporaryDirectory()
        do { _ = try StoreExportTests.filledStore(dir) }
        let url = URL(fileURLWithPath: dir.databasePath)
        var bytes = try Data(contentsOf: url)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        #expect(bytes.count >= 3 * pageSize)
        // Page 2 onwards (page 1 holds the header and the schema): every byte garbage.
        for i in pageSize..<min(bytes.count, 3 * pageSize) { bytes[i] = 0xA5 }
        try bytes.write(to: url)
        let verdict = Store.integrityCheck(ofFile: dir.databasePath)
        #expect(verdict != "ok")
        #expect(!verdict.isEmpty)
    }

    @Test("a file that is missing is reported and not created")
    func missingFileIsNotCreated() throws {
        let dir = TemporaryDirectory()
        let verdict = Store.integrityCheck(ofFile: dir.databasePath)
        #expect(verdict.hasPrefix("cannot open"))
        #expect(!FileManager.default.fileExists(atPath: dir.databasePath))
    }
}

import Foundation
import Testing

@testable import Store

/// `recoverydeck doctor` on this machine: one line per check, and the exit status says whether any
/// check failed (0 ready, 1 not). It creates no database.
struct DoctorCommandTests {
    @Test("doctor prints ten check lines; exit 1 exactly when a line is FAIL; no database is created")
    func realRun() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let outcome = try cli.run(["doctor"])
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 10, "\(outcome.stdout)")
        #expect(lines.allSatisfy { $0.hasPrefix("ok  ") || $0.hasPrefix("WARN") || $0.hasPrefix("FAIL") })
        #expect(
            lines.filter { $0.hasPrefix("FAIL") || $0.hasPrefix("WARN") }.allSatisfy {
                $0.contains(" — fix: ") || $0.contains("unknown")
            })
        let failed = lines.contains { $0.hasPrefix("FAIL") }
        #expect(outcome.status == (failed ? 1 : 0))
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
        let json = try cli.run(["doctor", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["checks"] as? [Any])?.count == 10)
        #expect(object?["ready"] as? Bool == !failed)
    }

    @Test("a damaged database still gets every line: the database check fails with its fix, the strap is unknown")
    func damagedDatabase() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        #expect(try cli.run(["settings", "--display-name", "Ada"]).status == 0)
        // Scribble over the b-tree header of the setting table's root page (where the pairing lives): a page SQLite's
        // integrity check must reject. Found by name, so later tables in the schema do not move the target.
        let root = try #require(
            try Store(path: cli.databasePath).database.prepare(
                "SELECT rootpage FROM sqlite_master WHERE name = 'setting'"
            ).rows { $0.int64(0) }.first ?? nil)
        let pageSize = try #require(
            try Store(path: cli.databasePath).database.prepare("PRAGMA page_size").rows { $0.int64(0) }.first ?? nil)
        let handle = try #require(FileHandle(forUpdatingAtPath: cli.databasePath))
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        try handle.write(
            contentsOf: Data([0x0D, 0x00, 0x00, 0x00, 0x05, 0x0F, 0xFF] + Array(repeating: 0xEE, count: 30)))
        try handle.close()
        let outcome = try cli.run(["doctor"])
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 10, "\(outcome.stdout)\(outcome.stderr)")
        let database = lines.first { $0.dropFirst(6).hasPrefix("database ") }.map(String.init) ?? ""
        #expect(database.hasPrefix("FAIL  database"), "\(database)")
        #expect(database.contains("fails its integrity check") && database.contains(".recover"), "\(database)")
        let strap = lines.first { $0.dropFirst(6).hasPrefix("strap ") }.map(String.init) ?? ""
        #expect(strap.hasPrefix("WARN  strap     the pairing could not be read"), "\(strap)")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("the box is not ready") && outcome.stderr.contains("database"))
    }

    @Test("a stored setting that does not read is named by doctor, with the default that applies instead")
    func badStoredSetting() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        #expect(try cli.run(["settings", "--display-name", "Ada"]).status == 0)
        // Written straight into the shared database, as a member with sqlite3 could.
        try Store(path: cli.databasePath).setSettings([(.bandEdges, "2,1")])
        let outcome = try cli.run(["doctor"])
        let rows = outcome.stdout.split(separator: "\n").first { $0.dropFirst(6).hasPrefix("rows ") }.map(String.init)
        #expect(rows?.hasPrefix("WARN") == true, "\(outcome.stdout)")
        #expect(
            rows?.contains(
                "the setting band_edges \"2,1\" is not a set of band edges (A,B with 0 < A < B ≤ 3, or channel=A,B "
                    + "joined by ;), so the spec's 1.0,1.5 applies") == true, "\(outcome.stdout)")
        let settings = try cli.run(["settings", "--json"])
        #expect(settings.status == 0 && settings.stderr.hasPrefix("Not used: the setting band_edges \"2,1\""))
    }
}

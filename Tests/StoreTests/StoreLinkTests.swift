import Foundation
import TestSupport
import Testing

import RecoveryCore

@testable import Store

/// Root runs the CLI on the service user's directory, so a link planted there must
/// not redirect the database to another directory.
@Suite struct StoreLinkTests {
    @Test("a dangling symlink at the database path is refused with a sentence and its target is not created")
    func danglingDatabaseLinkIsRefused() throws {
        let dir = TemporaryDirectory()
        let other = TemporaryDirectory()
        let target = other.url.appendingPathComponent("planted.db").path
        try FileManager.default.createSymbolicLink(atPath: dir.databasePath, withDestinationPath: target)
        do {
            _ = try Database(path: dir.databasePath)
            Issue.record("a database behind a symbolic link was opened")
        } catch {
            #expect(String(describing: error).contains("is a symbolic link"))
        }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("a symlink to an existing database elsewhere is refused and that database is untouched")
    func linkToExistingDatabaseIsRefused() throws {
        let dir = TemporaryDirectory()
        let other = TemporaryDirectory()
        _ = try Database(path: other.databasePath)
        let before = try Data(contentsOf: URL(fileURLWithPath: other.databasePath))
        try FileManager.default.createSymbolicLink(atPath: dir.databasePath, withDestinationPath: other.databasePath)
        #expect(throws: StoreError.self) { _ = try Database(path: dir.databasePath) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other.databasePath)) == before)
    }
}

@Suite struct MorningSpoolLinkTests {
    @Test("a spool that is a symlink to another directory is refused, and that directory's *.json survive")
    func spoolLinkIsRefused() throws {
        let dir = TemporaryDirectory()
        let other = TemporaryDirectory()
        let victim = other.url.appendingPathComponent("2026-03-10-morning-1-1.json")
        try Data("{}".utf8).write(to: victim)
        let spoolPath = MorningSpool.directory(forDatabase: dir.databasePath)
        try FileManager.default.createSymbolicLink(atPath: spoolPath, withDestinationPath: other.url.path)
        #expect(MorningSpool.existing(forDatabase: dir.databasePath) == nil)
        do {
            let spool = try MorningSpool(directory: spoolPath)
            try spool.removeAll()
            Issue.record("a spool behind a symbolic link was used")
        } catch {
            #expect(String(describing: error).contains("not a plain directory"))
        }
        #expect(FileManager.default.fileExists(atPath: victim.path))
    }
}

@Suite struct MorningSpoolTemporaryTests {
    @Test("delete --all also removes a hidden .<name>.tmp that holds a morning")
    func removeAllRemovesTemporaries() throws {
        let dir = TemporaryDirectory()
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        let temporary = URL(fileURLWithPath: spool.directory).appendingPathComponent(".2026-03-10-morning-1-1.json.tmp")
        try Data("{\"note\":\"TMP-MARKER\"}".utf8).write(to: temporary)
        try spool.removeAll()
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }
}

@Suite struct MorningSpoolTemporarySweepTests {
    static func temporary(_ spool: MorningSpool, day: String) throws -> String {
        let path = spool.directory + "/.\(day)-morning-1700000000-1.json.tmp"
        try Data("{\"note\":\"TMP-MARKER\"}".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("delete --day removes that day's temporaries and leaves other days' alone")
    func removeDaysRemovesTheDaysTemporaries() throws {
        let dir = TemporaryDirectory()
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        let theDay = try Self.temporary(spool, day: "2026-03-10")
        let otherDay = try Self.temporary(spool, day: "2026-03-11")
        try spool.removeDays(from: LocalDate(iso: "2026-03-10")!, through: LocalDate(iso: "2026-03-10")!)
        #expect(!FileManager.default.fileExists(atPath: theDay))
        #expect(FileManager.default.fileExists(atPath: otherDay))
    }

    @Test("Opening the spool sweeps temporaries over a minute old (a crash between write and rename), not newer ones")
    func staleTemporariesAreSweptAtOpen() throws {
        let dir = TemporaryDirectory()
        let directory = MorningSpool.directory(forDatabase: dir.databasePath)
        let spool = try MorningSpool(directory: directory)
        let stale = try Self.temporary(spool, day: "2026-03-10")
        let fresh = try Self.temporary(spool, day: "2026-03-11")
        var times = [timespec(tv_sec: time(nil) - 120, tv_nsec: 0), timespec(tv_sec: time(nil) - 120, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, stale, &times, 0) == 0)
        _ = try MorningSpool(directory: directory)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }
}

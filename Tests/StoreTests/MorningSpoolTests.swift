import CSQLite
import Foundation
import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// The spool: a finished morning is on disk before the database is asked, and reaches it once the cause clears.
struct MorningSpoolTests {
    @Test("a kept morning and questionnaire read back whole, one private file each, no temporary left")
    func keepsAndReadsBack() throws {
        let dir = TemporaryDirectory()
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        let morning = Fixture.morning(rr: (0..<90).map { UInt16(900 + $0 * 3) })
        let questionnaire = Fixture.questionnaire(notes: "a \"note\"")
        try spool.keep(.questionnaire(questionnaire), recordedAt: 100)
        try spool.keep(.morning(morning), recordedAt: 200)
        // The same day and second again (a remeasure): a second file, not an overwrite.
        try spool.keep(.morning(Fixture.morning(rmssd: 50)), recordedAt: 200)
        let (entries, unreadable) = spool.entries()
        #expect(unreadable.isEmpty)
        #expect(entries.map(\.content) == [.questionnaire(questionnaire), .morning(morning), .morning(Fixture.morning(rmssd: 50))])
        let names = try FileManager.default.contentsOfDirectory(atPath: spool.directory)
        #expect(names.count == 3, "one file per record and no temporary file: \(names)")
        for name in names {
            let mode = try FileManager.default.attributesOfItem(atPath: spool.directory + "/" + name)[.posixPermissions]
            #expect(mode as? Int == 0o600, "\(name) holds health data")
        }
    }

    @Test("a file that is not a spooled record is reported and left alone")
    func unreadableFile() throws {
        let dir = TemporaryDirectory()
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        try Data("{\"half\":".utf8).write(to: URL(fileURLWithPath: spool.directory + "/2026-03-10-morning-1.json"))
        let (entries, unreadable) = spool.entries()
        #expect(entries.isEmpty)
        #expect(unreadable == ["2026-03-10-morning-1.json: not a spooled record"])
        let store = try Store(path: dir.databasePath)
        #expect(spool.file(into: store).isEmpty)
        #expect(FileManager.default.fileExists(atPath: spool.directory + "/2026-03-10-morning-1.json"))
    }

    @Test("a record padded beyond the 16 MiB limit is reported and left alone, not read into memory")
    func oversizedFile() throws {
        let dir = TemporaryDirectory()
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        let entry = try spool.keep(.questionnaire(Fixture.questionnaire()), recordedAt: 1_773_130_000)
        let path = spool.directory + "/" + entry.name
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 0x20, count: 64 << 10))  // trailing spaces: still one valid document
        try handle.synchronize()
        #expect(spool.entries().entries.map(\.name) == [entry.name])
        handle.write(Data(repeating: 0x20, count: MorningSpool.maximumRecordBytes))
        try handle.close()
        let (entries, unreadable) = spool.entries()
        #expect(entries.isEmpty)
        #expect(unreadable.count == 1 && unreadable[0].hasPrefix(entry.name + ": "), "\(unreadable)")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("a FIFO named like a record is skipped with a sentence, neither opened for blocking nor read; delete passes it")
    func fifoInSpool() throws {
        let dir = TemporaryDirectory()
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        let kept = try spool.keep(.questionnaire(Fixture.questionnaire()), recordedAt: 1_796_420_000)
        let name = "2026-12-04-morning-1796420000-1.json"
        #expect(mkfifo(spool.directory + "/" + name, 0o600) == 0)
        // Before the fix this call blocked in open(2) for ever, waiting for a writer.
        let (entries, unreadable) = spool.entries()
        #expect(entries.map(\.name) == [kept.name], "the real record is still read")
        #expect(unreadable == ["\(name): not a regular file (a FIFO)"])
        let removed = try spool.removeDays(from: LocalDate(iso: "2026-12-04")!, through: LocalDate(iso: "2026-12-04")!)
        #expect(removed == 0)
        try spool.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.directory).isEmpty)
    }

    @Test("a symbolic link to a record outside the spool is not followed: the file it names is never read")
    func symlinkInSpool() throws {
        let dir = TemporaryDirectory()
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        // A real record of the spool's owner, moved out of the spool, then linked back in.
        let entry = try spool.keep(.questionnaire(Fixture.questionnaire(notes: "private")), recordedAt: 1_796_420_000)
        let outside = dir.path + "/private.json"
        #expect(rename(spool.directory + "/" + entry.name, outside) == 0)
        #expect(symlink(outside, spool.directory + "/" + entry.name) == 0)
        let (entries, unreadable) = spool.entries()
        #expect(entries.isEmpty, "the linked file was read: \(entries)")
        #expect(unreadable == ["\(entry.name): a symbolic link, not a record"])
        try spool.removeAll()
        #expect(FileManager.default.fileExists(atPath: outside), "delete removes the link, not what it names")
    }

    @Test(
        "a whole record owned by someone other than the folder's owner (a member's plant) is skipped",
        .enabled(if: geteuid() == 0, "chown needs root"))
    func foreignOwner() throws {
        let dir = TemporaryDirectory()
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        let entry = try spool.keep(.questionnaire(Fixture.questionnaire()), recordedAt: 1_796_420_000)
        #expect(chown(spool.directory + "/" + entry.name, 65_534, 65_534) == 0)
        let (entries, unreadable) = spool.entries()
        #expect(entries.isEmpty)
        #expect(unreadable.count == 1 && unreadable[0].hasPrefix("\(entry.name): owned by uid 65534"), "\(unreadable)")
    }

    @Test("a lock held by another process: the spool stays, then files once the lock is released")
    func lockHeldElsewhere() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath, busyTimeoutMs: 50)
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        let morning = Fixture.morning()
        let holder = try LockHolder(database: dir.databasePath)
        try spool.keep(.questionnaire(Fixture.questionnaire()), recordedAt: 100)
        try spool.keep(.morning(morning), recordedAt: 101)
        let refused = spool.file(into: store)
        guard case .refused(_, let error)? = refused.first else {
            Issue.record("expected a refusal, got \(refused)")
            return
        }
        #expect(error.isBusy)
        #expect(refused.count == 1, "the first refusal stops the round")
        #expect(spool.entries().entries.count == 2)
        #expect(try store.measurement(on: Fixture.day) == nil)
        holder.release()
        let filed = spool.file(into: store)
        #expect(filed.count == 2)
        #expect(try store.measurement(on: Fixture.day) == morning)
        #expect(try store.questionnaire(on: Fixture.day) == Fixture.questionnaire())
        #expect(spool.isEmpty)
    }

    @Test("a later check-in already in the database is not replaced by an older spooled one")
    func supersededByNewer() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        let newer = Fixture.questionnaire(scores: [7, 7, 7, 7, 7])
        try spool.keep(.questionnaire(Fixture.questionnaire()), recordedAt: 100)
        try store.saveQuestionnaire(newer, recordedAt: 150)
        let outcomes = spool.file(into: store)
        guard case .superseded? = outcomes.first else {
            Issue.record("expected superseded, got \(outcomes)")
            return
        }
        #expect(try store.questionnaire(on: Fixture.day) == newer)
        #expect(spool.isEmpty)
    }

    @Test("a record filed before a crash took its file's removal is not filed twice (its analytics once)")
    func filedBeforeCrash() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        try spool.keep(.morning(Fixture.morning()), recordedAt: 100)
        try store.saveMorning(Fixture.morning(), recordedAt: 100)
        let before = try store.events().count
        let outcomes = spool.file(into: store)
        guard case .filed? = outcomes.first else {
            Issue.record("expected filed, got \(outcomes)")
            return
        }
        #expect(try store.events().count == before)
        #expect(spool.isEmpty)
    }

    @Test("deleting a day removes its spooled records, so the spool cannot bring it back")
    func deleteRemovesSpooled() throws {
        let dir = TemporaryDirectory()
        let spool = try MorningSpool(directory: MorningSpool.directory(forDatabase: dir.databasePath))
        try spool.keep(.morning(Fixture.morning()), recordedAt: 1)
        try spool.keep(.morning(Fixture.morning(Fixture.day.adding(days: 1))), recordedAt: 2)
        #expect(try spool.removeDays(from: Fixture.day, through: Fixture.day) == 1)
        #expect(spool.entries().entries.map(\.date) == [Fixture.day.adding(days: 1)])
    }
}

/// The file under a long-lived connection: replaced, deleted, or damaged.
struct StoreFileTests {
    @Test("a backup moved over the live file: the next write goes into it, and the old log is not replayed onto it")
    func replacedFile() throws {
        let dir = TemporaryDirectory()
        let backupPath = dir.url.appendingPathComponent("backup.db").path
        do {
            let backup = try Store(path: backupPath)
            try backup.saveQuestionnaire(Fixture.questionnaire(), recordedAt: 1)
            try backup.truncateLog()
        }
        let store = try Store(path: dir.databasePath)
        try store.saveMorning(Fixture.morning(Fixture.day.adding(days: 5)), recordedAt: 2)
        #expect(rename(backupPath, dir.databasePath) == 0)
        try store.saveMorning(Fixture.morning(), recordedAt: 3)
        let fresh = try Store(path: dir.databasePath)
        #expect(try fresh.quickCheck() == [])
        #expect(try fresh.questionnaire(on: Fixture.day) == Fixture.questionnaire(), "the backup's own data")
        #expect(try fresh.measurement(on: Fixture.day) == Fixture.morning(), "the write after the move")
        #expect(
            try fresh.measurement(on: Fixture.day.adding(days: 5)) == nil,
            "the replaced file's log must not be replayed onto the backup")
    }

    @Test("the live file deleted: writes are refused with a sentence and no empty database appears")
    func deletedFile() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.databasePath)
        try store.saveQuestionnaire(Fixture.questionnaire(), recordedAt: 1)
        for suffix in ["", "-wal", "-shm"] { unlink(dir.databasePath + suffix) }
        #expect {
            try store.saveMorning(Fixture.morning(), recordedAt: 2)
        } throws: { error in
            "\(error)".contains("was deleted or moved away")
        }
        #expect(access(dir.databasePath, F_OK) != 0)
    }

    @Test("a damaged file is found at open or by quick_check")
    func damagedFile() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try Store(path: dir.databasePath)
            for n in 0..<60 { try store.saveMorning(Fixture.morning(Fixture.day.adding(days: n)), recordedAt: 1) }
            try store.truncateLog()
            #expect(try store.quickCheck() == [])
        }
        // Overwrite the middle of the file (past the header and schema pages) with garbage.
        let handle = try #require(FileHandle(forWritingAtPath: dir.databasePath))
        try handle.seek(toOffset: 4096 * 20)
        handle.write(Data(repeating: 0x5A, count: 4096 * 4))
        try handle.close()
        // Either opening already meets a damaged page, or quick_check reports it; never a silent "ok".
        do {
            let findings = try Store(path: dir.databasePath).quickCheck()
            #expect(!findings.isEmpty, "quick_check must report the overwritten pages")
        } catch {
            #expect(error.primaryCode == SQLITE_CORRUPT)
        }
    }
}

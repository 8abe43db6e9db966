import Foundation
import Store
import TestSupport
import Testing

@testable import Appliance
@testable import RecoveryCore

/// A finished morning survives a database that refuses it: it waits in the spool, the person gets the
/// readout, `status` says it waits, and it reaches the database once the cause clears.
@Suite(.serialized)
struct DaemonSpoolTests {
    @Test("the database deleted under the daemon: the morning waits in the spool, then is filed after a restart")
    func deletedDatabase() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire()
        for suffix in ["", "-wal", "-shm"] { unlink(h.configuration.database + suffix) }
        h.press([(0, "go")])
        #expect(h.run { h.phase == .readout }, "the readout shows as usual, not fault 9")
        #expect(!h.sounds.contains(.fault))
        let spool = try #require(h.daemon.filing.spool)
        #expect(spool.entries().entries.map(\.kind) == ["morning"])
        #expect(h.daemon.statusText.hasSuffix("saved, waiting for the database"))
        let status = try h.request(.status)["snapshot"]
        #expect(status?["waiting_for_database"]?.int64Value == 1)
        #expect(h.journal.lines.contains { $0.contains("a morning was saved, waiting for the database") })
        #expect(access(h.configuration.database, F_OK) != 0, "no empty database appears in the deleted one's place")

        // The cause clears (a restart makes a new file): the spooled morning is filed at start.
        try h.launch()
        #expect(spool.isEmpty)
        let morning = try #require(try h.store.measurement(on: DaemonHarness.today))
        #expect(morning.quality == .ok)
    }

    @Test("a day deleted while its morning waits: told the store changed, the daemon no longer counts it measured")
    func deletedWhileWaiting() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire()
        let holder = try LockHolder(database: h.configuration.database)
        h.press([(0, "go")])
        #expect(h.run { h.phase == .readout })
        #expect(h.daemon.routine.day.measured, "the waiting morning counts for the day")
        #expect(try h.request(.status)["snapshot"]?["waiting_for_database"]?.int64Value == 1)
        // What `recoverydeck delete --day` does: the spooled records of the day go, then the daemon is told.
        let spool = try #require(MorningSpool.existing(forDatabase: h.configuration.database))
        #expect(try spool.removeDays(from: DaemonHarness.today, through: DaemonHarness.today) == 1)
        _ = try h.request(.dayChanged)
        #expect(!h.daemon.routine.day.measured, "the deleted morning no longer counts")
        holder.release()
        try h.launch()
        #expect(try h.store.measurement(on: DaemonHarness.today) == nil, "nor does it come back at the next start")
    }

    @Test("a backup moved over the live database: the next morning goes into the backup, whole")
    func replacedDatabase() throws {
        let h = try DaemonHarness()
        let backup = h.directory + "/backup.db"
        do {
            let other = try Store(path: backup)
            try other.saveQuestionnaire(
                Questionnaire(date: DaemonHarness.today.adding(days: -3), scores: SubjectiveScores([4, 4, 4, 4, 4])!),
                recordedAt: 1)
        }
        h.keyQuestionnaire()
        #expect(rename(backup, h.configuration.database) == 0)
        unlink(backup + "-wal")
        unlink(backup + "-shm")
        // The daemon takes the file now at the path at its next wake: today's check-in, keyed into the file that
        // was moved away, is not in it, so GO asks for it first.
        h.press([(0, "go")])
        #expect(h.run(limit: 2000) { h.sounds.contains(.refused) })
        #expect(h.daemon.routine.day.questionnaire == nil)
        h.keyQuestionnaire()
        h.press([(0, "go")])
        #expect(h.run { h.phase == .readout })
        #expect(h.daemon.filing.waitingCount == 0, "filed at once: \(h.journal.lines)")
        let fresh = try Store(path: h.configuration.database)
        #expect(try fresh.quickCheck() == [])
        #expect(try fresh.measurement(on: DaemonHarness.today) != nil, "the morning is in the file now at the path")
        #expect(try fresh.questionnaire(on: DaemonHarness.today.adding(days: -3)) != nil, "the backup's days stay")
    }
}

import Foundation
import RecoveryCore
import Store
import Testing

/// The daemon keeps one connection open for weeks while `recoverydeck` processes over SSH open, write and
/// close the same WAL database. SQLite tells connections in other processes apart by POSIX advisory locks,
/// which a process loses on *every* lock of a file when it closes any descriptor of that file. A store that
/// opened and closed its own files beside SQLite's (to set their mode) lost its locks at once: the next CLI
/// to close thought it was the last user and deleted the -wal and -shm under the daemon, whose later reads
/// missed the check-in and whose later writes went to a deleted log.
@Suite struct SharedLogTests {
    static let scores = DatabaseLocationTests.scores

    @Test("a long-lived connection (the daemon's) sees a check-in a CLI process made, and what it writes after that CLI closed is on disk")
    func daemonConnectionSurvivesClosingClients() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let path = cli.databasePath
        // The box's database exists before the daemon starts, as it does every morning after the first.
        _ = try cli.run(["settings"])
        #expect(FileManager.default.fileExists(atPath: path))
        let daemon = try Store(path: path)
        // The daemon has written (its log holds frames), as it has after a migration or a filed morning.
        let earlier = LocalDate(year: 2026, month: 3, day: 8)!
        try daemon.saveQuestionnaire(Questionnaire(date: earlier, scores: SubjectiveScores([4, 4, 4, 4, 4])!), recordedAt: 1)
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.systemFileNumber] as? UInt64

        let checkin = try cli.run(["checkin"] + Self.scores, at: "2026-03-10T07:00")
        #expect(checkin.status == 0, "\(checkin.stderr)")
        let after = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.systemFileNumber] as? UInt64
        #expect(after == log, "the CLI's close replaced the log the daemon still has open (inode \(String(describing: log)) → \(String(describing: after)))")

        let today = LocalDate(year: 2026, month: 3, day: 10)!
        #expect(try daemon.questionnaire(on: today) != nil, "the daemon's connection does not see the CLI's check-in")

        let later = LocalDate(year: 2026, month: 3, day: 11)!
        try daemon.saveQuestionnaire(Questionnaire(date: later, scores: SubjectiveScores([6, 6, 6, 6, 6])!), recordedAt: 2)
        let status = try cli.run(["status"], at: "2026-03-11T07:05")
        #expect(!status.stdout.contains("check-in comes first"), "a CLI does not see what the daemon wrote: \(status.stdout)")
        let reopened = try Store(path: path)
        for day in [earlier, today, later] {
            #expect(try reopened.questionnaire(on: day) != nil, "\(day.iso) is not in the database file")
        }
    }
}

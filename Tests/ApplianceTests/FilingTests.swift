import Foundation
import Platform
import Store
import TestSupport
import Testing

@testable import Appliance
@testable import RecoveryCore

/// Filing on its own, against a real SQLite file and a real spool directory in a temporary folder; the
/// refusing database is another process holding the write lock (`LockHolder`), and the retry clock is the
/// real monotonic milliseconds the test hands in.
@Suite(.serialized)
struct FilingTests {
    static let day = LocalDate(year: 2026, month: 3, day: 10)!

    static func questionnaire() -> Questionnaire {
        Questionnaire(date: day, scores: SubjectiveScores([5, 6, 4, 5, 6])!)
    }

    static func morning(rmssd: Double = 48) -> MorningMeasurement {
        MorningMeasurement(
            date: day, startedAtEpoch: 1_773_122_400, durationMs: 183_000,
            hrv: HRVMetrics(
                rmssdMs: rmssd, meanRRMs: 1000, meanHRBpm: 60, sdnnMs: 52, accepted: 70, rejected: 1,
                artifactRatio: 1.0 / 71.0),
            meanHRBpm: 60, quality: .ok, orthostaticStatus: .completed,
            orthostatic: OrthostaticResult(avgLyingHR: 55, avgStandingHR: 75, peakStandingHR: 95),
            strapAddress: nil, strapBatteryPercent: nil,
            marks: PhaseMarks(settleStartMs: 0, captureStartMs: 15_000, captureEndMs: 75_000), rawRR: [],
            heartRates: [])
    }

    /// A temporary box: the database (its short busy timeout, as the daemon's), its spool directory, a journal.
    final class Box {
        let directory = TemporaryDirectory()
        let journal = Journal()
        let store: Store

        init() throws { store = try Store(path: directory.databasePath, busyTimeoutMs: 50) }

        var spoolDirectory: String { MorningSpool.directory(forDatabase: directory.databasePath) }
        var logger: Logger { Logger(minimumLevel: .info, sink: LogSink { [journal] in journal.append($0) }) }

        func filing(store: Store? = nil, spoolDirectory: String? = nil) -> Filing {
            Filing(store: store ?? self.store, spoolDirectory: spoolDirectory ?? self.spoolDirectory, logger: logger)
        }

        /// The record files in the spool directory, temporaries included.
        var spooledFiles: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: spoolDirectory)) ?? []).sorted()
        }

        func count(_ text: String) -> Int { journal.lines.filter { $0.contains(text) }.count }
    }

    @Test("a record the database takes lands once: in the database, nothing left in the spool, no retry armed")
    func filedOnce() throws {
        let box = try Box()
        let filing = box.filing()
        let morning = Self.morning()
        #expect(filing.file(.morning(morning), recordedAt: 1_773_122_600, nowRealMs: 0) == .inDatabase)
        #expect(try box.store.measurement(on: Self.day) == morning)
        #expect(try box.store.lastRecordedAt(on: Self.day) == 1_773_122_600)
        #expect(box.spooledFiles.isEmpty)
        #expect(filing.pending.isEmpty && filing.waitingCount == 0 && filing.reason == nil)
        #expect(filing.nextRetryDueRealMs == nil)
        #expect(filing.retry(nowRealMs: 1_000_000) == nil, "no retry is due when nothing waits")
        #expect(box.count("a morning was saved") == 1)
        #expect(box.count("waiting") == 0, "\(box.journal.lines)")

        // A restart over the same spool finds nothing to file again.
        let again = box.filing()
        again.fileEarlierRun(nowRealMs: 0)
        #expect(again.pending.isEmpty)
        #expect(box.count("from an earlier run") == 0)
        #expect(try box.store.days(from: Self.day.adding(days: -1), through: Self.day.adding(days: 1)).count == 1)
    }

    @Test("a locked database: the record waits in the spool, the back-off doubles to its cap, then the next retry files it")
    func refusedThenFiled() throws {
        let box = try Box()
        let filing = box.filing()
        let holder = try LockHolder(database: box.directory.databasePath)
        let questionnaire = Self.questionnaire()
        let outcome = filing.file(.questionnaire(questionnaire), recordedAt: 100, nowRealMs: 10_000)
        guard case .waiting(let why) = outcome else {
            Issue.record("expected the record to wait, got \(outcome)")
            return
        }
        #expect(why.hasPrefix("another program holds the database's write lock"), "\(why)")
        #expect(filing.reason == why)
        #expect(filing.waitingCount == 1)
        #expect(filing.pending(on: Self.day).map(\.content) == [.questionnaire(questionnaire)])
        #expect(filing.pending(on: Self.day.adding(days: 1)).isEmpty)
        #expect(box.spooledFiles.count == 1, "durable on disk while it waits: \(box.spooledFiles)")
        #expect(box.count("a questionnaire was saved, waiting for the database: another program holds") == 1)
        // The day as the person lives it has the check-in, though the database does not yet.
        let stored = DayContext(today: Self.day, questionnaire: nil, measured: false, tonight: nil)
        #expect(filing.day(stored).questionnaire == questionnaire)

        // Not due a millisecond early; each refused retry doubles the wait, up to 15 s.
        #expect(filing.nextRetryDueRealMs == 10_500)
        #expect(filing.retry(nowRealMs: 10_499) == nil)
        var now: Int64 = 10_500
        var waits: [Int64] = []
        for _ in 0..<6 {
            let round = try #require(filing.retry(nowRealMs: now))
            #expect(round.filed.isEmpty && !round.isClear)
            let due = try #require(filing.nextRetryDueRealMs)
            waits.append(due - now)
            now = due
        }
        #expect(waits == [1_000, 2_000, 4_000, 8_000, 15_000, 15_000])
        #expect(try box.store.questionnaire(on: Self.day) == nil)

        holder.release()
        let round = try #require(filing.retry(nowRealMs: now))
        #expect(round.isClear)
        #expect(round.filed.map(\.content) == [.questionnaire(questionnaire)])
        #expect(try box.store.questionnaire(on: Self.day) == questionnaire)
        #expect(box.spooledFiles.isEmpty)
        #expect(filing.pending.isEmpty && filing.reason == nil && filing.nextRetryDueRealMs == nil)
        #expect(box.count("a waiting questionnaire reached the database") == 1)
        #expect(box.count("nothing waits for the database any more") == 1)
    }

    @Test("the readout's history has the waiting morning on top of the stored days")
    func historyIncludesWaiting() throws {
        let box = try Box()
        try box.store.saveQuestionnaire(Self.questionnaire(), recordedAt: 50)
        let filing = box.filing()
        let holder = try LockHolder(database: box.directory.databasePath)
        defer { holder.release() }
        let morning = Self.morning()
        #expect(filing.file(.morning(morning), recordedAt: 100, nowRealMs: 0) != .inDatabase)
        let history = filing.history(forMorningOn: Self.day)
        #expect(history.map(\.date) == [Self.day], "one record a day")
        #expect(history.last?.measurement == morning, "the waiting morning")
        #expect(history.last?.questionnaire == Self.questionnaire(), "the stored check-in stays beside it")
    }

    @Test("records waiting in the spool survive a restart: a new Filing over the spool has them, and files them")
    func survivesRestart() throws {
        let box = try Box()
        let morning = Self.morning()
        do {
            let filing = box.filing()
            let holder = try LockHolder(database: box.directory.databasePath)
            #expect(filing.file(.morning(morning), recordedAt: 100, nowRealMs: 0) != .inDatabase)
            holder.release()
        }
        let reopened = try Store(path: box.directory.databasePath, busyTimeoutMs: 50)
        let filing = box.filing(store: reopened)
        #expect(filing.pending.map(\.content) == [.morning(morning)], "read from the spool at start")
        #expect(filing.pending.map(\.recordedAt) == [100])
        #expect(try reopened.measurement(on: Self.day) == nil)
        filing.fileEarlierRun(nowRealMs: 0)
        #expect(box.count("mornings from an earlier run wait in \(box.spoolDirectory): filing them") == 1)
        #expect(try reopened.measurement(on: Self.day) == morning)
        #expect(try reopened.lastRecordedAt(on: Self.day) == 100, "filed as made, not as restarted")
        #expect(filing.pending.isEmpty && box.spooledFiles.isEmpty)
    }

    @Test("a record another program removed from the spool (delete) is not filed by the next retry")
    func deletedFromTheSpool() throws {
        let box = try Box()
        let filing = box.filing()
        let holder = try LockHolder(database: box.directory.databasePath)
        #expect(filing.file(.morning(Self.morning()), recordedAt: 100, nowRealMs: 0) != .inDatabase)
        // What `recoverydeck delete --day` does to the spool, from its own handle on the directory.
        let other = try #require(MorningSpool.existing(forDatabase: box.directory.databasePath))
        #expect(try other.removeDays(from: Self.day, through: Self.day) == 1)
        filing.reload()
        #expect(filing.pending.isEmpty, "reload reads the spool again")
        holder.release()
        let round = try #require(filing.retry(nowRealMs: 500))
        #expect(round.isClear && round.filed.isEmpty)
        #expect(try box.store.measurement(on: Self.day) == nil, "the deleted day does not come back")
    }

    @Test("without a spool directory, a refused record waits in memory and the retry files it")
    func withoutSpool() throws {
        let box = try Box()
        let filing = box.filing(spoolDirectory: box.directory.path + "/missing/parent.spool")
        #expect(filing.spool == nil)
        #expect(box.count("no spool for finished mornings") == 1)
        let holder = try LockHolder(database: box.directory.databasePath)
        let questionnaire = Self.questionnaire()
        #expect(filing.file(.questionnaire(questionnaire), recordedAt: 100, nowRealMs: 0) != .inDatabase)
        #expect(filing.waitingCount == 1)
        #expect(filing.nextRetryDueRealMs == 500)
        holder.release()
        let round = try #require(filing.retry(nowRealMs: 500))
        #expect(round.isClear && round.filed.map(\.recordedAt) == [100])
        #expect(try box.store.questionnaire(on: Self.day) == questionnaire)
    }
}

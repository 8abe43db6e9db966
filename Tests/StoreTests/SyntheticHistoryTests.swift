import Foundation
import RecoveryCore
import TestSupport
import Testing

@testable import Store

/// The demo's history: a synthetic person's mornings through the real core, written through the store.
struct SyntheticHistoryTests {
    static func seeded(_ dir: TemporaryDirectory, seed: UInt64 = 10) throws -> (Store, SyntheticPerson) {
        let store = try Store(path: dir.databasePath)
        let person = SyntheticPerson(seed: seed, firstDate: LocalDate(year: 2026, month: 1, day: 10)!)
        try store.seedSyntheticHistory(person: person, days: 0..<60) { Int64($0.dayNumber) * 86_400 + 6 * 3600 }
        return (store, person)
    }

    @Test("60 seeded mornings: most days stored and complete, a few missing or skipping the stand, lights ready")
    func sixtyMornings() throws {
        let dir = TemporaryDirectory()
        let (store, person) = try Self.seeded(dir)
        let days = try store.allDays()
        // One day in twenty is left out, one morning in twelve skips the orthostatic part (seeded draws).
        #expect((50...60).contains(days.count))
        #expect(days.first?.date == person.firstDate || days.first!.date > person.firstDate)
        let skipped = days.filter { $0.measurement?.orthostaticStatus == .skipped }.count
        #expect((1...12).contains(skipped))
        let complete = try store.completeDays(from: person.firstDate, through: person.firstDate.adding(days: 59))
        #expect(complete.count >= 45, "synthetic mornings are clean: nearly all complete")
        let readout = Baselines.readout(days: days, today: person.firstDate.adding(days: 59))
        #expect(!readout.isBuilding)
        #expect(try store.events(kind: .morningCompleted).count == days.filter { $0.measurement?.quality == .ok }.count)
    }

    @Test("each seeded morning's numbers are what the core computes from its stored raw RR (spec §5.1, §5.3)")
    func numbersFollowTheRawData() throws {
        let dir = TemporaryDirectory()
        let (store, _) = try Self.seeded(dir)
        for day in try store.allDays() {
            let m = try #require(day.measurement)
            // Re-analyse the stored raw RR exactly as the morning window saw it.
            var window = RMSSDWindow(startMs: m.marks.settleStartMs)
            var result: HRVWindowResult?
            for rr in m.rawRR {
                if case .complete(let r) = window.append(rr.milliseconds, at: rr.receivedAtMs) {
                    result = r
                    break
                }
            }
            let replay = result ?? window.finish(at: m.marks.captureEndMs)
            #expect(replay.metrics == m.hrv, "\(day.date)")
            #expect(replay.captureEndMs == m.marks.captureEndMs)
            if let rmssd = m.hrv?.rmssdMs { #expect((10...200).contains(rmssd), "\(day.date): rMSSD \(rmssd)") }
            if m.orthostaticStatus == .completed {
                let o = try #require(m.orthostatic)
                #expect(o == OrthostaticCalculator.result(rr: m.rawRR, heartRates: m.heartRates, marks: m.marks))
                #expect(o.gapPeak > o.gapAvg && o.gapAvg > 0, "\(day.date): standing raises HR, peaking early")
            }
        }
    }

    @Test("the same seed writes the same history")
    func deterministic() throws {
        let a = TemporaryDirectory()
        let b = TemporaryDirectory()
        #expect(try Self.seeded(a).0.allDays() == Self.seeded(b).0.allDays())
        let c = TemporaryDirectory()
        #expect(try Self.seeded(a).0.allDays() != Self.seeded(c, seed: 11).0.allDays())
    }

    @Test("two connections to one file (daemon and CLI) see each other's committed writes at once")
    func twoConnections() throws {
        let dir = TemporaryDirectory()
        let daemon = try Store(path: dir.databasePath)
        let cli = try Store(path: dir.databasePath)
        try cli.saveQuestionnaire(Fixture.questionnaire(), recordedAt: 1)
        #expect(try daemon.hasQuestionnaire(on: Fixture.day))
        try daemon.saveMorning(Fixture.morning(), recordedAt: 2)
        #expect(try cli.day(Fixture.day).isComplete)
    }
}

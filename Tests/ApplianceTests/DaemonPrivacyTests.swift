import ControlProtocol
import Foundation
import Platform
@testable import Store
import Testing

@testable import Appliance
@testable import RecoveryCore

/// What the daemon leaves where `recoverydeck delete` cannot reach, and a restore that never resumes.
@Suite(.serialized)
struct DaemonPrivacyTests {
    @Test("After a whole morning the journal at the default level (info) names no day, verdict, value or habit")
    func journalKeepsNoHealthFacts() throws {
        let h = try DaemonHarness(edit: { $0.logLevel = .info })
        try h.store.setSetting(.habits, "sauna,alcohol")
        #expect(try h.request(.dayChanged)["ok"]?.boolValue == true)
        h.keyQuestionnaire([5, 5, 4, 5, 6])
        h.press([(0, "go")])
        #expect(h.run { h.phase == .readout })
        let m = try #require(try h.store.measurement(on: DaemonHarness.today))
        let rmssd = try #require(m.hrv?.rmssdMs)
        let atInfo = h.journal.lines.filter { line in
            guard line.hasPrefix("<"), let level = line.dropFirst().first?.wholeNumberValue else { return false }
            return level <= 6
        }
        #expect(atInfo.contains { $0.contains("a morning was saved") }, "the save itself is still said")
        let facts = [
            DaemonHarness.today.iso, "green", "yellow", "red:", "sauna", "alcohol", "quality=", "orthostatic=",
            String(format: "%.1f", rmssd),
        ]
        for fact in facts {
            #expect(!atInfo.contains { $0.contains(fact) }, "the journal at info holds \(fact): \(atInfo)")
        }
    }

    @Test("A morning that stops on a fault says so in the journal at the default level, with the fault's sentence")
    func faultsStayInTheJournal() throws {
        // A clock the kernel has never set: GO ends in the clock's fault.
        let h = try DaemonHarness(
            edit: { $0.logLevel = .info }, simulate: { $0.unsynchronisedBoot = 2000 })
        let stored = Questionnaire(date: DaemonHarness.today, scores: SubjectiveScores([2, 3, 2, 3, 2])!)
        try h.store.saveQuestionnaire(stored, recordedAt: 1000)
        h.press([(0, "go")])
        #expect(h.run { h.sentences.contains(ClockGuard.sentence) })
        h.run(limit: 50) { false }
        #expect(h.phase == .showingFault)
        let said = h.journal.lines.filter {
            $0.hasPrefix("<5>") && $0.contains("the morning stopped (\(MorningFault.clockUnsynchronised.code))")
        }
        #expect(said.count == 1, "\(h.journal.lines)")
        #expect(said.first?.contains(MorningFault.clockUnsynchronised.sentence) == true)
    }

    @Test("A restore that holds the writes and never resumes stops blocking mornings after the pause's limit")
    func pauseEndsByItself() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire()
        let restorer = try ControlClient(path: h.configuration.controlSocket)
        #expect(try h.request(.pauseWrites, client: restorer)["ok"]?.boolValue == true)
        #expect(try h.request(.measure(overwrite: false))["error"]?.stringValue == "paused")
        // Five minutes of real time have passed (the limit is real time, not the simulated clock).
        let holder = try #require(h.daemon.writePause.holder)
        // The holder cannot move its own end, so the test begins the pause again, in the past.
        _ = h.daemon.writePause.resume()
        _ = h.daemon.writePause.pause(by: holder, nowRealMs: SystemClock.monotonicMs() - Daemon.pauseLimitMs - 1)
        #expect(try h.request(.measure(overwrite: false))["ok"]?.boolValue == true)
        #expect(!h.daemon.writePause.isHeld)
        #expect(h.journal.lines.contains { $0.hasPrefix("<4>") && $0.contains("without resuming") })
        _ = restorer
    }
}

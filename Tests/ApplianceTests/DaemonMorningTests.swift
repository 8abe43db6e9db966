import ControlProtocol
import JSON
import Foundation
@testable import Store
import Testing

@testable import Appliance
@testable import Simulation
@testable import RecoveryCore

/// The whole box in-process: simulated panel, virtual strap, the real daemon code and store.
@Suite(.serialized)
struct DaemonMorningTests {
    @Test(
        "Keyed questionnaire, GO, a whole morning: stored once, metrics equal the core's on the stored RR (spec §6.1, §5)"
    )
    func fullMorningThroughTheDaemon() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire([5, 5, 4, 5, 6])
        let q = try #require(try h.store.questionnaire(on: DaemonHarness.today))
        #expect(SubjectiveItem.allCases.map { q.scores[$0].value } == [5, 5, 4, 5, 6])
        h.press([(0, "go")])
        #expect(h.run { h.phase == .readout })
        let m = try #require(try h.store.measurement(on: DaemonHarness.today))
        #expect(m.quality == .ok && m.orthostaticStatus == .completed)
        // Recompute from what was stored: the capture window over the stored RR, by arrival time.
        var window = RMSSDWindow(startMs: m.marks.settleStartMs)
        var result: HRVWindowResult?
        for rr in m.rawRR where result == nil {
            if case .complete(let r) = window.append(rr.milliseconds, at: rr.receivedAtMs) { result = r }
        }
        let recomputed = result ?? window.finish(at: m.marks.captureEndMs)
        #expect(recomputed.metrics == m.hrv)
        #expect(recomputed.captureEndMs == m.marks.captureEndMs)
        let lyingEnd = try #require(m.marks.lyingEndMs)
        let ortho = OrthostaticCalculator.result(
            rr: m.rawRR, heartRates: m.heartRates, lying: (lyingEnd - 30_000)..<lyingEnd,
            standing: m.marks.standStartMs!..<m.marks.standEndMs!)
        #expect(ortho == m.orthostatic)
        #expect((15...120).contains(m.hrv?.rmssdMs ?? 0), "plausible: tens of ms (spec §11.2 item 4)")
        #expect(h.sounds.contains(.standNow) && h.sounds.last == .complete)
        #expect(try h.store.day(DaemonHarness.today).isComplete)
    }

    @Test(
        "GO before the questionnaire is refused: nothing connects, nothing is stored, gate_refused recorded (spec §6.3)"
    )
    func gateThroughTheDaemon() throws {
        let h = try DaemonHarness()
        h.press([(0, "go")])
        h.run { h.sounds.contains(.refused) }
        #expect(h.daemon.panel.display == Indication.refused.display)
        h.run(limit: 50) { false }
        #expect(h.phase == .idle)
        #expect(try h.store.measurement(on: DaemonHarness.today) == nil)
        #expect(try h.store.events().contains { $0.kind.rawValue == "gate_refused" })
    }

    @Test(
        "HRV only at the panel: GO held 2 s during the capture asks, GO confirms; the morning saves without the stand (spec §6.2; DESIGN §1)"
    )
    func hrvOnlyFromThePanel() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire()
        // Connected at ~2 s, the capture from ~17 s: held at 30 s, long press at 32 s, confirmed at 34 s.
        h.press([(0, "go"), (30_000, "go-long"), (34_000, "go")])
        #expect(h.run { h.sounds.contains(.confirmAsked) })
        #expect(h.daemon.panel.display == Indication.confirmSkip.display)
        #expect(h.run { h.phase == .readout })
        #expect(!h.sounds.contains(.standCount) && !h.sounds.contains(.standNow))
        let m = try #require(try h.store.measurement(on: DaemonHarness.today))
        #expect(m.orthostaticStatus == .skipped && m.orthostatic == nil && m.quality == .ok)
        #expect(try h.store.day(DaemonHarness.today).isComplete)
        #expect(try h.store.events().contains { $0.kind.rawValue == "orthostatic_skipped" })
        // The simulated panel recorded every lamp change: the question's yellow fast blink (125 ms steps) for
        // the 2 s between the long press and the confirmation, then dark.
        let yellow = try #require(h.box.panel?.timeline).filter { $0.output == .yellow }
        #expect((14...18).contains(yellow.count) && yellow.first?.on == true && yellow.last?.on == false)
        #expect(zip(yellow, yellow.dropFirst()).allSatisfy { $1.atMs - $0.atMs == 125 })
    }

    @Test(
        "A slow save delays the readout, never shortens it: lit 30 s from its first edge (DESIGN §1 step 5; LIGHTS.md)"
    )
    func readoutLastsThirtySecondsAfterASlowSave() throws {
        let h = try DaemonHarness()
        let saveMs: Int64 = 2_500  // a slow fdatasync (kernel GPIO in a VM: the readout lit 27 s of its 30)
        var displays: [(atMs: Int64, display: PanelDisplay)] = []
        var readout: PanelDisplay?
        h.daemon.observer = { [unowned h] event in
            h.events.append(event)
            switch event {
            // The hand-moved clock advances during the save, between the loop's wake and the store's answer.
            case .saved(_, let answer):
                readout = Indication.readout(answer.composite).display
                (h.daemon.clock as? SteppedClock)?.advance(ms: saveMs)
            case .display(let display): displays.append((h.daemon.clock.monotonicMs(), display))
            default: break
            }
        }
        h.keyQuestionnaire()
        h.press([(0, "go")])
        #expect(h.run { h.phase == .readout })
        #expect(h.run { h.phase == .idle })
        let shown = try #require(displays.lastIndex { $0.display == readout })
        let lit = displays[shown].atMs
        let over = try #require(displays[shown...].first { $0.display == .dark }).atMs
        #expect(abs(over - lit - 30_000) <= 5, "readout shown \(over - lit) ms")
        // The lamps follow from that instant: every readout edge on the pattern's grid from `lit` (none cut
        // from its front), and none as it goes dark (no flash of an edge due at the same instant).
        let timeline = try #require(h.box.panel?.timeline)
        let edges = timeline.filter { $0.output != .buzzer && $0.atMs >= lit && $0.atMs <= over }
        #expect(edges.count >= 20)
        #expect(edges.allSatisfy { ($0.atMs - lit) % 1000 == 0 && $0.atMs < over }, "\(edges.suffix(3))")
    }

    @Test(
        "An HR-only strap gives a degraded morning: rMSSD null, mean HR and the orthostatic numbers from BPM, day not complete (spec §4.1, §5.2, §7.2)"
    )
    func heartRateOnly() throws {
        let h = try DaemonHarness(simulate: { $0.simulatedHROnly = true })
        h.keyQuestionnaire()
        h.press([(0, "go")])
        #expect(h.run { h.phase == .readout })
        let m = try #require(try h.store.measurement(on: DaemonHarness.today))
        #expect(m.hrv == nil && m.quality == .fail(.rrUnavailable) && m.rawRR.isEmpty)
        #expect(h.sentences.contains(MorningFault.rrUnavailable.sentence))
        // Mean HR over the capture: the mean of the strap's BPM values in it, never an rMSSD.
        let capture = m.marks.captureStartMs..<m.marks.captureEndMs
        let bpm = m.heartRates.filter { capture.contains($0.receivedAtMs) }.map { Double($0.bpm) }
        #expect(abs(try #require(m.meanHRBpm) - bpm.reduce(0, +) / Double(bpm.count)) < 1e-9)
        // The orthostatic test is real measured heart rate (spec §5.2: the mean of BPM samples per phase).
        #expect(m.orthostaticStatus == .completed)
        #expect(OrthostaticCalculator.result(rr: m.rawRR, heartRates: m.heartRates, marks: m.marks) == m.orthostatic)
        #expect(m.orthostatic != nil)
        // rMSSD missing: not a complete day (spec §7.2), so it does not count towards the 14 that build baselines.
        let today = try h.store.day(DaemonHarness.today)
        #expect(!today.isComplete)
    }

    @Test("A drop-out while standing pauses, resumes by itself, and ends in one complete morning (spec §4.2)")
    func dropoutResumes() throws {
        // Connected at ~2 s; settle 15, capture ~60, lying 30, cue 3: standing from ~110 s.
        let h = try DaemonHarness(simulate: { $0.simulatedDropout = (130, 20) })
        h.keyQuestionnaire()
        h.press([(0, "go")])
        #expect(h.run { h.phase == .readout })
        let phases = h.events.compactMap { if case .snapshot(let s) = $0 { s.phase } else { nil } }
        #expect(phases.contains(.paused) && phases.contains(.offeringResume))
        let m = try #require(try h.store.measurement(on: DaemonHarness.today))
        #expect(m.orthostaticStatus == .completed && m.quality == .ok)
        #expect(try h.store.events().contains { $0.kind.rawValue == "strap_dropout" })
        // Re-analysis from the stored marks gives the stored numbers: the lying phase is the 30 s before the
        // stand cue, after the settle that followed the resume, not everything since the capture.
        let lyingEnd = try #require(m.marks.lyingEndMs)
        #expect(lyingEnd - MorningProtocol.lyingMs > m.marks.captureEndMs + MorningProtocol.settleMs)
        #expect(OrthostaticCalculator.result(rr: m.rawRR, heartRates: m.heartRates, marks: m.marks) == m.orthostatic)
    }

    @Test("Shutting down mid-session writes nothing: the day stays as it was (spec §11.2 item 5)")
    func shutdownMidSession() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire()
        h.press([(0, "go")])
        #expect(h.run { h.phase == .captureStanding })
        h.daemon.shutDown()
        #expect(try h.store.measurement(on: DaemonHarness.today) == nil)
        #expect(try h.store.questionnaire(on: DaemonHarness.today) != nil)
    }

    @Test("The reminder starts at 06:30 once; a restarted daemon shows it again without a second start (spec §10)")
    func reminderAcrossRestart() throws {
        let h = try DaemonHarness(start: "06:29") { $0.reminderBuzzer = true }
        #expect(h.daemon.panel.display == .dark)
        h.run { h.daemon.routine.reminder.isShowing }
        #expect(h.daemon.panel.display == Indication.reminder.display)
        #expect(h.daemon.clock.localTime().minuteOfDay == MinuteOfDay(hhmm: "06:30"))
        #expect(h.sounds == [.reminder])
        #expect(try h.store.settings().reminderShownOn == DaemonHarness.today)
        // Restart at 09:58 (the lamp blinks in session time, so a shorter wait for the window's end).
        h.simulation.clockStart = (DaemonHarness.today, MinuteOfDay(hhmm: "09:58")!)
        h.events.removeAll()
        try h.launch()
        #expect(h.daemon.routine.reminder.isShowing)
        #expect(h.daemon.panel.display == Indication.reminder.display)
        #expect(h.sounds.isEmpty)
        #expect(try h.store.events().filter { $0.kind.rawValue == "reminder_shown" }.count == 1)
        // The window closes at 10:00.
        h.run { !h.daemon.routine.reminder.isShowing }
        #expect(h.daemon.clock.localTime().minuteOfDay == MinuteOfDay(hhmm: "10:00"))
        #expect(h.daemon.panel.display == .dark)
    }

    @Test("`settings --reminder` reaches a running daemon: off stops the blink at day-changed, a time moves it")
    func reminderSettingFollowsTheStore() throws {
        let h = try DaemonHarness(start: "06:45")
        #expect(h.daemon.routine.reminder.isShowing)
        try h.store.setSetting(.reminderTime, Settings.off)
        #expect(try h.request(.dayChanged)["ok"]?.boolValue == true)
        #expect(!h.daemon.routine.reminder.isShowing)
        #expect(h.daemon.panel.display == .dark)
        try h.store.setSetting(.reminderTime, "06:40")
        #expect(try h.request(.dayChanged)["ok"]?.boolValue == true)
        #expect(h.daemon.routine.reminder.isShowing)
        #expect(h.daemon.routine.configuration.reminder.start == MinuteOfDay(hhmm: "06:40"))
        // A stored time the window never reaches keeps the reminder off and says why; the daemon runs on.
        try h.store.setSetting(.reminderTime, "11:00")
        #expect(try h.request(.dayChanged)["ok"]?.boolValue == true)
        #expect(!h.daemon.routine.reminder.isShowing)
        #expect(h.journal.lines.contains { $0.hasPrefix("<4>") && $0.contains("11:00") && $0.contains("stays off") })
        // A restart reads the same: off stays off.
        try h.store.setSetting(.reminderTime, Settings.off)
        try h.launch()
        #expect(!h.daemon.routine.configuration.reminder.enabled && !h.daemon.routine.reminder.isShowing)
    }

    @Test("A stored setting that does not read is said in the journal with its default, and the default is used")
    func badStoredSettingInTheJournal() throws {
        let h = try DaemonHarness()
        try h.store.setSettings([(.habits, "sauna,Sauna"), (.artifactRule, "median")])
        try h.launch()
        #expect(h.daemon.routine.configuration.habits == Questionnaire.starterHabits)
        #expect(h.daemon.routine.configuration.artifactRule == .default)
        let said = h.journal.lines.filter { $0.hasPrefix("<4>") && $0.contains("the setting ") }
        #expect(said.contains { $0.contains("habits \"sauna,Sauna\" is not a list of 1 to 20 different habit names") })
        #expect(said.contains { $0.contains("artifact_rule \"median\" is not one of pattern, spec-20, so the pattern rule applies") })
    }

    @Test("The habit keys follow `settings --habits` without a restart")
    func habitsFollowTheStore() throws {
        let h = try DaemonHarness()
        try h.store.setSetting(.habits, "sauna,alcohol")
        #expect(try h.request(.dayChanged)["ok"]?.boolValue == true)
        #expect(h.daemon.routine.configuration.habits == ["sauna", "alcohol"])
    }

    @Test(
        "A restore's pause: no morning starts (GO or measure) until it resumes or its client goes; refused mid-session")
    func pauseWritesForRestore() throws {
        let h = try DaemonHarness()
        h.keyQuestionnaire()
        let restorer = try ControlClient(path: h.configuration.controlSocket)
        #expect(try h.request(.pauseWrites, client: restorer)["ok"]?.boolValue == true)
        let refused = try h.request(.measure(overwrite: false))
        #expect(refused["error"]?.stringValue == "paused")
        h.press([(0, "go")])
        h.run(limit: 2000) { false }
        #expect(h.phase == .idle, "GO started a morning during the pause")
        // The restore rewrote the day: resume reads it again (here the check-in is gone).
        try h.store.deleteAll()
        #expect(try h.request(.resumeWrites, client: restorer)["ok"]?.boolValue == true)
        #expect(h.daemon.routine.day.questionnaire == nil)
        h.keyQuestionnaire()
        // A restore that dies mid-way lets the box measure again when its connection closes.
        var dying: ControlClient? = try ControlClient(path: h.configuration.controlSocket)
        #expect(try h.request(.pauseWrites, client: dying)["ok"]?.boolValue == true)
        dying = nil
        h.run(limit: 2000) { !h.daemon.writePause.isHeld }
        #expect(!h.daemon.writePause.isHeld)
        #expect(try h.request(.measure(overwrite: false))["ok"]?.boolValue == true)
        // While a session runs, a pause is refused: the restore says so and waits.
        #expect(try h.request(.pauseWrites)["error"]?.stringValue == "busy")
    }

    @Test(
        "Control socket: measure refused before the check-in with its sentence; after it, measure starts and watch streams"
    )
    func controlSocket() throws {
        let h = try DaemonHarness()
        let refused = try h.request(.measure(overwrite: false))
        #expect(refused["ok"]?.boolValue == false)
        #expect(refused["error"]?.stringValue == "questionnaire_missing")
        #expect(refused["message"]?.stringValue == MorningFault.questionnaireMissing.sentence)
        h.keyQuestionnaire()
        // Every reply and packet is read through the protocol's own decoders, as the command line reads them.
        let watcher = try ControlClient(path: h.configuration.controlSocket)
        let watching = try SessionStatus.decode(try h.request(.watch, client: watcher))
        #expect(watching.snapshot.phase == "idle")
        let started = try MeasureStarted.decode(try h.request(.measure(overwrite: false)))
        #expect(started == MeasureStarted(phase: "connecting", date: DaemonHarness.today.iso))
        #expect(try h.request(.measure(overwrite: true))["error"]?.stringValue == "busy")
        #expect(try h.request(.advance(seconds: 60))["error"]?.stringValue == "busy")
        // The watcher reads as `recoverydeck watch` does, while the session runs.
        var phases: [String] = []
        var events: [ControlEvent] = []
        var undecoded: [String] = []
        h.run {
            while true {
                do throws(ControlFailure) {
                    guard let event = try watcher.nextEvent(timeoutMs: 0) else { break }
                    events.append(event)
                    if case .snapshot(let s) = event, phases.last != s.phase { phases.append(s.phase) }
                } catch {
                    undecoded.append(error.description)
                    break
                }
            }
            return phases.last == "readout"
        }
        #expect(undecoded.isEmpty, "\(undecoded)")
        #expect(phases.first == "connecting" && phases.last == "readout")
        // The saved morning is announced once, and every packet carries the daemon's clock, never going back.
        let saved = events.compactMap { if case .saved(_, let date, let rr) = $0 { (date, rr) } else { nil } }
        #expect(saved.count == 1 && saved.first?.0 == DaemonHarness.today.iso)
        #expect((saved.first?.1 ?? 0) > 45)
        let clock = events.map(\.sessionMs)
        #expect(clock.count > 10 && zip(clock, clock.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(phases.contains("captureRMSSD") && phases.contains("captureStanding"))
        // The stream carries the buzzer's patterns and the panel's sentences too, each as its own event.
        #expect(events.contains { if case .sound = $0 { true } else { false } })
        #expect(events.contains { if case .say = $0 { true } else { false } })
        // Cancel during the readout cancels no session: it darkens the panel, and the morning stays saved.
        let cleared = try CancelOutcome.decode(try h.request(.cancel))
        #expect(cleared == CancelOutcome(phase: "idle", was: "readout", cancelled: false))
        #expect(h.phase == .idle)
        #expect(try h.store.measurement(on: DaemonHarness.today) != nil)
        // Once measured: a plain measure is declined, --overwrite starts again.
        #expect(try h.request(.measure(overwrite: false))["error"]?.stringValue == "already_measured")
        #expect(try h.request(.measure(overwrite: true))["ok"]?.boolValue == true)
        let cancelled = try CancelOutcome.decode(try h.request(.cancel))
        #expect(cancelled.cancelled && cancelled.was != "readout")
        let again = try h.request(.cancel)
        do throws(ControlFailure) {
            _ = try CancelOutcome.decode(again)
            Issue.record("a second cancel was not refused")
        } catch {
            guard case .refused(let refusal) = error else { throw error }
            #expect(refusal.code == .nothingToCancel)
        }
        // The daemon's other answers read back through their own types.
        let day = try DayAnswer.decode(try h.request(.dayChanged))
        #expect(day.date == DaemonHarness.today.iso)
        let status = try SessionStatus.decode(try h.request(.status))
        #expect(status.snapshot.phase == "idle" && status.snapshot.date == DaemonHarness.today.iso)
        let restorer = try ControlClient(path: h.configuration.controlSocket)
        _ = try Acknowledged.decode(try h.request(.pauseWrites, client: restorer))
        #expect(try DayAnswer.decode(try h.request(.resumeWrites, client: restorer)) == day)
    }

    @Test("watch streams each press and the panel as shown, timed on the daemon's clock (what the demo prints)")
    func watchStreamsPresses() throws {
        let h = try DaemonHarness()
        let watcher = try ControlClient(path: h.configuration.controlSocket)
        let first = try SessionStatus.decode(try h.request(.watch, client: watcher))
        #expect(first.snapshot.display == "dark")
        h.press([(0, "1"), (700, "2")])
        var presses: [(button: String, ms: Int64)] = []
        var displays: [String] = []
        h.run {
            while let event = try? watcher.nextEvent(timeoutMs: 0) {
                switch event {
                case .input(let ms, let button): presses.append((button, ms))
                case .snapshot(let s): if displays.last != s.display { displays.append(s.display) }
                case .say, .sound, .saved: break
                }
            }
            return presses.count == 2 && displays.count >= 2
        }
        #expect(presses.map(\.button) == ["1", "2"])
        #expect(presses.count == 2 && presses[1].ms - presses[0].ms == 700)
        #expect(displays.first == "blue: 1 blink")
    }

    @Test("A check-in written over SSH opens the gate for the next GO (the daemon re-reads the day)")
    func checkinFromOutside() throws {
        let h = try DaemonHarness()
        let q = Questionnaire(date: DaemonHarness.today, scores: SubjectiveScores([4, 4, 4, 4, 4])!)
        // `recoverydeck checkin` writes the database through its own connection: GO finds the day changed.
        try Store(path: h.configuration.database).saveQuestionnaire(q, recordedAt: 0)
        h.press([(0, "go")])
        #expect(h.run { h.phase == .connecting })
        #expect(h.run { h.phase == .captureRMSSD })
        // After a delete over SSH, day-changed brings the gate back before anyone presses GO.
        #expect(try h.request(.cancel)["cancelled"]?.boolValue == true)
        _ = try h.store.deleteDay(DaemonHarness.today)
        #expect(try h.request(.dayChanged)["ok"]?.boolValue == true)
        #expect(h.daemon.routine.day.questionnaire == nil)
    }

    @Test("A failing event loop exits 1 with an error line, so Restart=on-failure applies (systemd.service(5))")
    func loopFailureIsAFailure() throws {
        let h = try DaemonHarness()
        // epoll_wait on a descriptor that is no epoll instance fails (EINVAL): the loop cannot go on.
        let null = open("/dev/null", O_RDONLY)
        #expect(null >= 0)
        let epoll = h.daemon.registration.loop.descriptor.rawValue
        #expect(dup2(null, epoll) == epoll)
        close(null)
        #expect(h.daemon.run() == 1)
        let failure = h.journal.lines.filter { $0.contains("the event loop failed") }
        #expect(failure.count == 1 && failure.allSatisfy { $0.hasPrefix("<3>") }, "\(h.journal.lines)")
    }

    @Test("Bad control requests get one sentence and change nothing")
    func badRequests() throws {
        let h = try DaemonHarness()
        let client = try ControlClient(path: h.configuration.controlSocket)
        try client.connection.send(Array("not json".utf8))
        var reply: JSONValue?
        h.run(limit: 100) {
            reply = try? client.next(timeoutMs: 0)
            return reply != nil
        }
        #expect(reply?["error"]?.stringValue == "bad_request")
        #expect(try h.request(.press([Press("banana")]))["error"]?.stringValue == "bad_button")
        #expect(h.phase == .idle)
    }
}

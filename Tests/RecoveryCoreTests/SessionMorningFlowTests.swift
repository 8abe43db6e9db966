import Testing

@testable import RecoveryCore

/// Whole mornings through the session engine with a hand-moved clock (RecoveryDeck spec §6.1, §6.2, §4.1,
/// §4.2, §5.1; DESIGN §1).
struct SessionMorningFlowTests {
    /// RR pattern of the fake strap: 1000 ms and 1040.0390625 ms alternating, so every successive difference
    /// is ±40.0390625 ms and rMSSD is exactly that (spec §5.1 formula).
    static let alternatingRMSSD = 40.0390625

    @Test("Lost notifications in the capture break the pair across them; the stored morning re-analyses the same")
    func lostNotificationsBreakAPair() throws {
        var clean = SessionHarness()
        clean.startMorning()
        clean.run(until: .saving)
        let cleanHRV = try #require(clean.saves.first?.0.hrv)
        // Three notifications 30–32.9 s into the session (inside the capture, under the 5 s that loses the strap)
        // never arrive: about three beats, 3 s of RR, are missing from the stream.
        var h = SessionHarness()
        h.strap.lostMs = 30_000..<33_000
        h.startMorning()
        h.run(until: .saving)
        let m = try #require(h.saves.first?.0)
        let hrv = try #require(m.hrv)
        // Clean: the first capture beat pairs with nothing, so pairs = accepted − 1. With the gap, one more break.
        #expect(cleanHRV.pairs == cleanHRV.accepted - 1)
        #expect(hrv.pairs == hrv.accepted - 2)
        // Every adjacent pair still differs by ±40.0390625 ms, so rMSSD is exactly that (spec §5.1).
        #expect(abs((hrv.rmssdMs ?? 0) - Self.alternatingRMSSD) < 1e-9)
        #expect(m.quality == .ok)
        // Re-analysis of the stored raw RR (the migration's path) gives the session's numbers.
        #expect(HRVAnalysis.reanalyze(rawRR: m.rawRR, marks: m.marks).metrics == hrv)
        #expect(HRVAnalysis.reanalyze(rawRR: clean.saves[0].0.rawRR, marks: clean.saves[0].0.marks).metrics == cleanHRV)
    }

    @Test("A strap without skin contact for 3 s of the capture: its beats are rejected as no_contact, rMSSD unmoved")
    func noContactBeatsAreRejected() throws {
        // Notifications 30–32.9 s into the session say "no contact" (a zero rate) and carry each beat split in two.
        var h = SessionHarness()
        h.strap.noContactMs = 30_000..<33_000
        h.startMorning()
        h.run(until: .saving)
        let m = try #require(h.saves.first?.0)
        let hrv = try #require(m.hrv)
        let tally = try #require(hrv.judgement)
        // About three beats, six intervals of noise: all rejected for contact, none by the rule.
        #expect((5...8).contains(tally.noContact), "\(tally)")
        #expect(tally.rejected == tally.noContact)
        // The pairs around them are broken, so every adjacent pair still differs by ±40.0390625 ms.
        #expect(hrv.pairs == hrv.accepted - 2)
        #expect(abs((hrv.rmssdMs ?? 0) - Self.alternatingRMSSD) < 1e-9)
        #expect(m.quality == .ok)
        // The stored morning, re-judged from its raw RR and heart rates, gives the session's numbers.
        #expect(HRVAnalysis.reanalyze(rawRR: m.rawRR, marks: m.marks, heartRates: m.heartRates).metrics == hrv)
    }

    @Test("A full combined morning runs every phase for the spec's time and saves once (spec §6.1)")
    func fullMorning() throws {
        var h = SessionHarness()
        h.startMorning()
        #expect(h.session.phase == .connectedLive)
        h.run(until: .saving)
        // Phase times: first RR at 3 s starts the settle; capture 15 s later; lying when the window is
        // satisfied; cue 30 s later; standing 3 s after that; saving 60 s later.
        let settle = try #require(h.entered(.settleLying).first)
        let capture = try #require(h.entered(.captureRMSSD).first)
        let lying = try #require(h.entered(.captureLyingHR).first)
        let cue = try #require(h.entered(.promptStand).first)
        let standing = try #require(h.entered(.captureStanding).first)
        let saving = try #require(h.entered(.saving).first)
        #expect(settle == 3000)
        #expect(capture - settle == 15_000)
        // 59 beats of mean 1020 ms make ≥ 60 000 ms. Beats count by arrival (the core's window), and a
        // notification carries the beats of the second before it, so the window closes 59–61 s in.
        #expect((59_000...61_000).contains(lying - capture))
        #expect(cue - lying == 30_000)
        #expect(standing - cue == 3_000)
        #expect(saving - standing == 60_000)
        #expect(
            h.phases.map(\.phase) == [
                .idle, .connecting, .connectedLive, .settleLying, .captureRMSSD, .captureLyingHR, .promptStand,
                .captureStanding, .saving,
            ])
        #expect(h.sounds == [.standCount, .standCount, .standCount, .standNow])
        let standSounds = h.log.filter { if case .sound = $0.action { true } else { false } }.map(\.atMs)
        #expect(standSounds == [cue, cue + 1000, cue + 2000, cue + 3000])

        let saves = h.saves
        #expect(saves.count == 1)
        let (m, overwrite) = try #require(saves.first)
        #expect(!overwrite)
        #expect(m.date == SessionHarness.today)
        #expect(m.quality == .ok)
        let hrv = try #require(m.hrv)
        #expect(abs(try #require(hrv.rmssdMs) - Self.alternatingRMSSD) < 1e-9)
        #expect(hrv.accepted >= 45 && hrv.rejected == 0)
        #expect(m.orthostaticStatus == .completed)
        let o = try #require(m.orthostatic)
        #expect(abs(o.avgLyingHR - 60_000 / 1020.02) < 0.1)
        // The first standing notification still carries a lying beat or two: within 1 bpm.
        #expect(abs(o.avgStandingHR - 60_000 / 754.88) < 1.0)
        #expect(o.peakStandingHR == 79)
        #expect(m.marks.settleStartMs == 3000 && m.marks.captureStartMs == 18_000)
        #expect(m.marks.captureEndMs == lying && m.marks.lyingEndMs == cue && m.marks.standStartMs == standing)
        #expect(m.marks.standEndMs == saving && m.durationMs == saving)
        #expect(m.strapAddress == "A0:9E:1A:00:00:01" && m.strapBatteryPercent == 80)
        // Every RR the strap sent is kept, in order, timed from GO.
        #expect(m.rawRR.count == h.delivered.filter { $0.atMs < saving }.reduce(0) { $0 + $1.rr })
        #expect(m.rawRR.map(\.receivedAtMs) == m.rawRR.map(\.receivedAtMs).sorted())
        #expect(h.session.indication == .measuring)
        #expect(h.log.contains { $0.action == .disconnectStrap })
    }

    @Test("A late timer does not stretch a phase: lying 30 s, cue 3 s, standing 60 s exactly, rebuilt from the marks")
    func lateTimerKeepsPhaseLengths() throws {
        var h = SessionHarness()
        h.timerLatenessMs = 37
        h.startMorning()
        h.run(until: .saving)
        let m = try #require(h.saves.first?.0)
        let lyingEnd = try #require(m.marks.lyingEndMs)
        let standStart = try #require(m.marks.standStartMs)
        #expect(try #require(m.marks.standEndMs) - standStart == 60_000)
        #expect(standStart - lyingEnd == 3_000)
        #expect(lyingEnd - m.marks.captureEndMs == 30_000)
        let lying = OrthostaticCalculator.meanHeartRate(
            rr: m.rawRR, heartRates: m.heartRates, phase: (lyingEnd - 30_000)..<lyingEnd)
        #expect(lying?.bpm == m.orthostatic?.avgLyingHR)
        // The sounds themselves come when the timer fires.
        #expect(h.entered(.captureStanding).first! - standStart == 37)
    }

    @Test("Saved: rising triple beep, the composite for 30 s, then dark (DESIGN §1 step 5)")
    func readoutAfterSave() throws {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .saving)
        let readout = PanelReadout(composite: .yellow, channels: [.red, .green, .green, .yellow, .building])
        let actions = h.send(.saved(readout))
        #expect(actions.contains(.sound(.complete)))
        #expect(!h.records.contains("remeasured"))
        #expect(h.session.indication == .readout(.yellow))
        #expect(h.session.day.measured)
        let shown = h.nowMs
        h.run(untilMs: shown + 29_999)
        #expect(h.session.indication == .readout(.yellow))
        h.run(untilMs: shown + 30_000)
        #expect(h.session.phase == .idle && h.session.indication == .dark)
    }

    @Test("A morning unlike the person: after the 30 s readout, red and yellow double blink for 10 s, then dark")
    func notLikeYouAfterReadout() throws {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .saving)
        var readout = PanelReadout(composite: .yellow, channels: [.red, .red, .green, .yellow, .yellow])
        readout.notLikeYou = true
        h.send(.saved(readout))
        let shown = h.nowMs
        h.run(untilMs: shown + 29_999)
        #expect(h.session.indication == .readout(.yellow))
        h.run(untilMs: shown + 30_000)
        #expect(h.session.indication == .notLikeYou && h.session.phase == .readout)
        #expect(Indication.notLikeYou.display == PanelDisplay(red: .doubleBlink, yellow: .doubleBlink))
        // GO shows the composite again, and the pattern follows it again.
        h.send(.go(.short))
        #expect(h.session.indication == .readout(.yellow))
        let pressed = h.nowMs
        h.run(untilMs: pressed + 30_000)
        #expect(h.session.indication == .notLikeYou)
        h.run(untilMs: pressed + 39_999)
        #expect(h.session.indication == .notLikeYou)
        h.run(untilMs: pressed + 40_000)
        #expect(h.session.phase == .idle && h.session.indication == .dark)
    }

    @Test("The unlike-you blink is not shown late: a wake-up after its time goes dark at once, ready for a morning")
    func notLikeYouNotShownLate() throws {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .saving)
        var readout = PanelReadout(composite: .green, channels: [.green, .green, .green, .green, .green])
        readout.notLikeYou = true
        h.send(.saved(readout))
        // The next morning's first tick: the readout and the 10 s that follow it ended long ago.
        h.nowMs += 23 * 3_600_000
        h.send(.tick)
        #expect(h.session.phase == .idle && h.session.indication == .dark)
    }

    @Test(
        "Readout keys 1–5 show each channel after its number for 3 s; GO shows the composite again (DESIGN §1 step 5)")
    func readoutChannels() {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .saving)
        let readout = PanelReadout(composite: .green, channels: [.red, .green, .yellow, .missing, .building])
        h.send(.saved(readout))
        h.run(untilMs: h.nowMs + 10_000)
        for n in 1...5 {
            h.send(.key(.digit(n)))
            #expect(h.session.indication == .channel(n, readout.channels[n - 1]))
            let shownFor = Int64(LightPattern.countDurationMs(n) + Indication.channelShowMs)
            h.run(untilMs: h.nowMs + shownFor - 1)
            #expect(h.session.indication == .channel(n, readout.channels[n - 1]))
            h.run(untilMs: h.nowMs + 1)
            #expect(h.session.indication == .dark && h.session.phase == .readout)
        }
        #expect(h.send(.key(.digit(6))) == [.sound(.wrongKey)])
        h.send(.go(.short))
        #expect(h.session.indication == .readout(.green))
        // The readout lasts 30 s from the last press.
        let pressed = h.nowMs
        h.run(untilMs: pressed + 29_999)
        #expect(h.session.phase == .readout)
        h.run(untilMs: pressed + 30_000)
        #expect(h.session.phase == .idle)
    }

    @Test(
        "GO before today's questionnaire is refused: low beep, red blinks twice, nothing connects (spec §6.3; DESIGN §1)"
    )
    func gateRefuses() {
        var h = SessionHarness(day: DayContext(today: SessionHarness.today))
        let actions = h.send(.go(.short))
        #expect(actions.contains(.sound(.refused)))
        #expect(!actions.contains(.connectStrap))
        #expect(h.session.indication == .refused)
        #expect(h.records == ["gate_refused"])
        h.run(untilMs: 1199)
        #expect(h.session.indication == .refused)
        h.run(untilMs: 1200)
        #expect(h.session.phase == .idle)
        // Yesterday's questionnaire does not open today's gate.
        let yesterday = Questionnaire(
            date: SessionHarness.today.adding(days: -1), scores: SubjectiveScores([4, 4, 4, 4, 4])!)
        var stale = SessionHarness(day: DayContext(today: SessionHarness.today, questionnaire: yesterday))
        #expect(stale.send(.go(.short)).contains(.sound(.refused)))
        // Over SSH: declined with the reason, no panel blink.
        var ssh = SessionHarness(day: DayContext(today: SessionHarness.today))
        #expect(ssh.send(.measure(overwrite: false)).contains(.declined(.questionnaireMissing)))
        #expect(ssh.session.phase == .idle)
    }

    @Test(
        "Remeasure: GO on a measured day asks (blue fast blink); GO within 5 s overwrites, at 5 s it is over (spec §6.1)"
    )
    func remeasure() throws {
        let measured = DayContext(
            today: SessionHarness.today, questionnaire: SessionHarness.questionnaire, measured: true)
        var h = SessionHarness(day: measured)
        #expect(h.send(.go(.short)).contains(.sound(.confirmAsked)))
        #expect(h.session.indication == .confirmRemeasure)
        #expect(Indication.confirmRemeasure.display.blue == .fastBlink)
        h.run(untilMs: 4999)
        let actions = h.send(.go(.short))
        #expect(actions.contains(.connectStrap))
        h.strap.sending = true
        h.strap.startMs = h.nowMs
        h.run(until: .saving)
        #expect(try #require(h.saves.first).1 == true)
        h.send(.saved(PanelReadout(composite: .green, channels: [])))
        #expect(h.records.contains("remeasured"))

        var late = SessionHarness(day: measured)
        late.send(.go(.short))
        late.run(untilMs: 5000)
        #expect(late.session.phase == .idle)
        // The next GO asks again rather than overwriting.
        #expect(!late.send(.go(.short)).contains(.connectStrap))
        // Over SSH, --overwrite is the confirmation; without it the request is declined.
        var ssh = SessionHarness(day: measured)
        #expect(ssh.send(.measure(overwrite: false)) == [.declined(.alreadyMeasured)])
        #expect(ssh.send(.measure(overwrite: true)).contains(.connectStrap))
    }

    @Test("Holding GO 2 s before the stand cue and confirming skips the orthostatic part: HRV saved alone (spec §6.2)")
    func skipOrthostatic() throws {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureRMSSD)
        h.run(untilMs: h.nowMs + 10_000)
        #expect(h.send(.go(.long)).contains(.sound(.confirmAsked)))
        #expect(h.session.indication == .confirmSkip)
        h.run(untilMs: h.nowMs + 2000)
        #expect(h.send(.go(.short)).contains(.sound(.acknowledged)))
        #expect(h.session.indication == .measuring)
        h.run(until: .saving)
        #expect(h.entered(.captureLyingHR).isEmpty && h.entered(.promptStand).isEmpty)
        let m = try #require(h.saves.first?.0)
        #expect(m.orthostaticStatus == .skipped && m.orthostatic == nil)
        #expect(m.hrv?.rmssdMs != nil && m.quality == .ok)
        #expect(m.marks.lyingEndMs == nil && m.marks.standStartMs == nil && m.marks.standEndMs == nil)
        h.send(.saved(PanelReadout(composite: .green, channels: [])))
        #expect(h.session.phase == .readout)
    }

    @Test("Skip confirmed during the lying phase completes at once; unconfirmed, the morning goes on (spec §6.2)")
    func skipDuringLyingAndUnconfirmed() throws {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureLyingHR)
        h.run(untilMs: h.nowMs + 5000)
        h.send(.go(.long))
        let actions = h.send(.go(.short))
        #expect(h.session.phase == .saving)
        #expect(actions.contains { if case .save(let m, _) = $0 { m.orthostaticStatus == .skipped } else { false } })

        var unconfirmed = SessionHarness()
        unconfirmed.startMorning()
        unconfirmed.run(until: .settleLying)
        unconfirmed.send(.go(.long))
        unconfirmed.run(untilMs: unconfirmed.nowMs + 5000)
        #expect(unconfirmed.session.indication == .measuring)
        unconfirmed.send(.go(.short))  // too late: nothing happens
        unconfirmed.run(until: .saving)
        #expect(unconfirmed.saves.first?.0.orthostaticStatus == .completed)
    }

    @Test("Holding GO after the stand cue began is too late: a low beep, the morning goes on")
    func skipTooLate() {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureStanding)
        #expect(h.send(.go(.long)) == [.sound(.wrongKey)])
        #expect(h.session.phase == .captureStanding)
    }

    @Test("Too many artifacts: quality fail, nothing saved, GO within 30 s retries from the settle (spec §5.1 step 4)")
    func qualityFailRetry() throws {
        var h = SessionHarness()
        // Every third beat a missed beat (twice its neighbours): rejected, ratio well above 0.20.
        h.strap.pattern = [1024, 1024, 2048]
        h.startMorning()
        h.run(until: .offeringRetry)
        #expect(h.session.indication == .offerRetry(.tooManyArtifacts))
        #expect(h.saves.isEmpty)
        #expect(h.records.contains("hrv_quality_fail"))
        #expect(h.sentences.contains { $0.hasPrefix(MorningFault.tooManyArtifacts.sentence) })
        // The person fixes the strap and retries.
        h.strap.pattern = [1024, 1065]
        h.run(untilMs: h.nowMs + 3000)
        h.send(.go(.short))
        #expect(h.session.phase == .connectedLive)
        h.run(until: .saving)
        let m = try #require(h.saves.first?.0)
        #expect(m.quality == .ok)
        // The retry is a fresh attempt: only its own RR are kept.
        #expect(m.rawRR.first!.receivedAtMs >= 0 && m.marks.settleStartMs < 5000)
    }

    @Test("Quality fail with no answer ends the session after 30 s with nothing saved and the strap released")
    func qualityFailTimeout() {
        var h = SessionHarness()
        h.strap.pattern = [1024, 1024, 2048]
        h.startMorning()
        let failedAt = h.run(until: .offeringRetry)!
        h.run(untilMs: failedAt + 29_999)
        #expect(h.session.phase == .offeringRetry)
        h.run(untilMs: failedAt + 30_000)
        #expect(h.session.phase == .idle && h.saves.isEmpty)
        #expect(h.log.last { $0.action == .disconnectStrap }!.atMs == failedAt + 30_000)
    }

    @Test("Too few beats: RR stop arriving during the capture; at 90 s the floors fail (spec §5.1)")
    func tooFewBeats() {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureRMSSD)
        let captureStart = h.nowMs
        h.run(untilMs: captureStart + 20_000)
        h.strap.rrIncluded = false  // the strap keeps sending BPM, without RR
        h.run(until: .offeringRetry)
        #expect(h.nowMs == captureStart + 90_000)
        #expect(h.session.indication == .offerRetry(.tooFewBeats))
    }

    @Test(
        "HR-only strap: the spec's sentence, then a degraded morning: rMSSD null, mean HR and orthostatic from BPM (spec §4.1, §5.2)"
    )
    func hrOnlyDegraded() throws {
        var h = SessionHarness()
        h.strap.rrIncluded = false
        h.startMorning()
        h.run(until: .settleLying)
        #expect(h.nowMs == 2000 + 10_000)
        #expect(h.sentences.contains(MorningFault.rrUnavailable.sentence))
        #expect(h.records.contains("rr_unavailable"))
        #expect(h.session.indication == .measuringWithoutRR)
        h.run(until: .saving)
        let m = try #require(h.saves.first?.0)
        #expect(m.hrv == nil)
        #expect(m.quality == .fail(.rrUnavailable))
        #expect(abs(try #require(m.meanHRBpm) - 59) < 1e-9)  // the strap's BPM, not derived RR
        #expect(m.rawRR.isEmpty)
        // The orthostatic numbers come from BPM (spec §5.2).
        let o = try #require(m.orthostatic)
        #expect(o.avgLyingHR == 59 && o.peakStandingHR == 79)
        #expect(m.marks.captureEndMs - m.marks.captureStartMs == 60_000)
    }

    @Test(
        "Strap lost while standing: pause, resume on GO; the rMSSD part is kept and the orthostatic part redone (spec §4.2 step 5)"
    )
    func dropoutDuringStandingResumes() throws {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureStanding)
        let firstCapture = h.entered(.captureRMSSD).first!
        h.run(untilMs: h.nowMs + 20_000)
        h.strap.sending = false
        #expect(h.send(.strapDisconnected).contains(.sound(.strapLost)))
        #expect(h.session.indication == .reconnecting)
        h.run(untilMs: h.nowMs + 8000)
        // Back: the person lies down again.
        h.strap.standAtMs = nil
        h.strap.sending = true
        h.strap.startMs = h.nowMs
        h.strap.lastNotifyMs = nil
        h.send(.strapConnected(address: nil, batteryPercent: nil))
        h.run(until: .offeringResume)
        #expect(h.session.indication == .offerResume)
        h.run(untilMs: h.nowMs + 1000)
        h.send(.go(.short))
        #expect(h.session.phase == .settleLying)
        let resumedAt = h.nowMs
        h.run(until: .saving)
        // Settle 15 s, then lying (not a new capture), cue, standing.
        #expect(h.entered(.captureRMSSD) == [firstCapture])
        #expect(h.entered(.captureLyingHR).last! == resumedAt + 15_000)
        let m = try #require(h.saves.first?.0)
        #expect(abs(try #require(m.hrv?.rmssdMs) - Self.alternatingRMSSD) < 1e-9)
        #expect(m.orthostaticStatus == .completed)
        #expect(m.marks.lyingEndMs == h.entered(.promptStand).last!)
        #expect(abs(try #require(m.orthostatic).avgLyingHR - 60_000 / 1020.02) < 0.1)
        #expect(h.records.contains("strap_dropout") && h.records.contains("session_resumed"))
    }

    @Test(
        "A resumed morning's marks rebuild its lying phase (the 30 s before lyingEnd): re-analysis equals the session (spec §6.1, §4.2)"
    )
    func resumedMorningReanalysedFromMarks() throws {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureLyingHR)
        h.run(untilMs: h.nowMs + 12_000)
        h.strap.sending = false
        h.send(.strapDisconnected)
        h.run(untilMs: h.nowMs + 6000)
        // Back after getting up to fix the strap: a faster heart (about 66 bpm) for the rest of the morning.
        h.strap.pattern = [922, 942]
        h.strap.sending = true
        h.strap.startMs = h.nowMs
        h.strap.lastNotifyMs = nil
        h.send(.strapConnected(address: nil, batteryPercent: nil))
        h.run(until: .offeringResume)
        h.send(.go(.short))
        h.run(until: .saving)
        let m = try #require(h.saves.first?.0)
        let o = try #require(m.orthostatic)
        let lyingEnd = try #require(m.marks.lyingEndMs)
        // A settle (and the pause before it) sits between the capture and the lying phase.
        #expect(lyingEnd - MorningProtocol.lyingMs > m.marks.captureEndMs + MorningProtocol.settleMs)
        let phases = try #require(OrthostaticCalculator.phases(of: m.marks))
        #expect(phases.lying == h.entered(.captureLyingHR).last!..<h.entered(.promptStand).last!)
        #expect(OrthostaticCalculator.result(rr: m.rawRR, heartRates: m.heartRates, marks: m.marks) == o)
        // The lying HR is the resumed heart's (922/942 raw alternate: 60000 / 910.16 ms), not a blend with the
        // beats before the drop-out.
        #expect(abs(o.avgLyingHR - 60_000 / 910.15625) < 0.1)
        let sinceCapture = OrthostaticCalculator.meanHeartRate(
            rr: m.rawRR, heartRates: m.heartRates, phase: m.marks.captureEndMs..<lyingEnd)
        #expect(abs(try #require(sinceCapture).bpm - o.avgLyingHR) > 1)
    }

    @Test("Strap lost during the capture: the capture restarts whole after a fresh settle")
    func dropoutDuringCaptureRestartsCapture() throws {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureRMSSD)
        h.run(untilMs: h.nowMs + 30_000)
        h.send(.strapDisconnected)
        h.strap.sending = false
        h.run(untilMs: h.nowMs + 3000)
        h.strap.sending = true
        h.strap.lastNotifyMs = nil
        h.strap.startMs = h.nowMs
        h.run(until: .offeringResume)
        // No answer: it resumes by itself after 15 s.
        let offered = h.nowMs
        h.run(until: .settleLying)
        #expect(h.nowMs == offered + 15_000)
        h.run(until: .saving)
        let captures = h.entered(.captureRMSSD)
        #expect(captures.count == 2 && captures[1] == offered + 15_000 + 15_000)
        let m = try #require(h.saves.first?.0)
        #expect(m.marks.captureStartMs == captures[1] && m.quality == .ok)
    }

    @Test("A strap that falls silent without disconnecting is lost after 5 s")
    func silenceCountsAsLoss() {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureLyingHR)
        h.strap.sending = false
        let lastSample = h.session.lastSampleMs!
        h.run(until: .paused)
        #expect(h.nowMs == lastSample + 5000)
    }

    @Test("Strap not back within 60 s: the session ends as strap_lost, nothing saved, code 5 blinks (spec §4.2)")
    func reconnectTimeout() {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureLyingHR)
        h.strap.sending = false
        h.send(.strapDisconnected)
        let lost = h.nowMs
        h.run(untilMs: lost + 59_999)
        #expect(h.session.phase == .paused)
        h.run(untilMs: lost + 60_000)
        #expect(h.session.indication == .fault(.strapLost))
        #expect(h.saves.isEmpty && h.records.contains("strap_lost"))
        h.run(untilMs: lost + 60_000 + 30_000)
        #expect(h.session.phase == .idle)
    }

    @Test("Holding GO when the strap is back restarts the whole morning; * cancels")
    func restartAndCancelFromResumeOffer() throws {
        var h = SessionHarness()
        h.startMorning()
        h.run(until: .captureLyingHR)
        h.send(.strapDisconnected)
        h.strap.lastNotifyMs = nil
        h.strap.startMs = h.nowMs + 2000
        h.run(until: .offeringResume)
        let restartAt = h.nowMs
        h.send(.go(.long))
        #expect(h.records.contains("session_restarted"))
        h.run(until: .saving)
        let m = try #require(h.saves.first?.0)
        #expect(m.rawRR.allSatisfy { $0.receivedAtMs >= 0 })
        #expect(m.durationMs < h.nowMs - restartAt + 1)

        var c = SessionHarness()
        c.startMorning()
        c.run(until: .captureLyingHR)
        c.send(.strapDisconnected)
        c.strap.lastNotifyMs = nil
        c.run(until: .offeringResume)
        c.send(.key(.star))
        #expect(c.session.phase == .idle && c.saves.isEmpty)
    }

    @Test("No strap within 30 s: strap_not_found, code 4, analytics ble_connect_fail (spec §7.3)")
    func connectTimeout() {
        var h = SessionHarness()
        h.send(.go(.short))
        h.run(untilMs: 29_999)
        #expect(h.session.phase == .connecting && h.session.indication == .connecting)
        h.run(untilMs: 30_000)
        #expect(h.session.indication == .fault(.strapNotFound))
        #expect(h.records.contains("ble_connect_fail"))
        #expect(h.sentences.contains(MorningFault.strapNotFound.sentence))
    }

    @Test(
        "The link's own failures end the session with their code",
        arguments: [MorningFault.bluetoothUnavailable, .noStrapPaired, .strapNotFound])
    func linkFailures(fault: MorningFault) {
        var h = SessionHarness()
        h.send(.go(.short))
        h.send(.strapFailed(fault))
        #expect(h.session.indication == .fault(fault))
        #expect(h.records.contains(fault.analyticsEvent))
        // A key or GO clears the code; GO starts again.
        #expect(h.send(.go(.short)).contains(.connectStrap))
    }

    @Test("Connected but silent for 10 s: strap_lost")
    func connectedButSilent() {
        var h = SessionHarness()
        h.send(.go(.short))
        h.send(.strapConnected(address: nil, batteryPercent: nil))
        h.run(untilMs: 10_000)
        #expect(h.session.indication == .fault(.strapLost))
    }

    @Test(
        "* or recoverydeck cancel stops a session from any measuring phase; nothing is saved (spec §9.2: cancel always available)"
    )
    func cancelFromEveryPhase() {
        for phase in [
            MorningSession.Phase.connecting, .connectedLive, .settleLying, .captureRMSSD, .captureLyingHR,
            .promptStand, .captureStanding,
        ] {
            for viaKeypad in [true, false] {
                var h = SessionHarness()
                h.send(.go(.short))
                h.strap.sending = true
                h.strap.startMs = 2000
                if phase != .connecting {
                    h.run(untilMs: 2000)
                    h.send(.strapConnected(address: nil, batteryPercent: nil))
                    if phase != .connectedLive { h.run(until: phase) }
                }
                #expect(h.session.phase == phase)
                let actions = h.send(viaKeypad ? .key(.star) : .cancel)
                #expect(actions.contains(.sound(.cancelled)) && actions.contains(.disconnectStrap), "\(phase)")
                h.run(untilMs: h.nowMs + 400_000)
                #expect(h.session.phase == .idle && h.saves.isEmpty, "\(phase)")
            }
        }
        var idle = SessionHarness()
        #expect(idle.send(.cancel) == [.declined(.nothingToCancel)])
    }

    @Test("A measure request while a session runs is declined as busy")
    func busy() {
        var h = SessionHarness()
        h.send(.go(.short))
        #expect(h.send(.measure(overwrite: true)) == [.declined(.busy)])
    }
}

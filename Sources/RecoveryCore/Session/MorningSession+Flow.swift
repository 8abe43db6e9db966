extension MorningSession {
    // MARK: Presses and requests

    mutating func go(_ press: GoPress, now: SessionTime) -> [Action] {
        let t = now.monotonicMs
        switch phase {
        case .idle, .showingFault:
            return requestStart(now: now, overwrite: false, fromPanel: true)
        case .confirmingRemeasure:
            return start(now: now, overwrite: true)
        case .connecting, .connectedLive, .settleLying, .captureRMSSD, .captureLyingHR:
            if press == .long {
                // Spec §6.2: skipping requires a confirmation.
                guard !skipConfirmed, skipOfferUntilMs == nil else { return [] }
                skipOfferUntilMs = t + timings.confirmMs
                return [.sound(.confirmAsked), .say("Skip the orthostatic part today? Press GO to confirm.")]
            }
            guard skipOfferUntilMs != nil else { return [] }
            skipOfferUntilMs = nil
            skipConfirmed = true
            var actions: [Action] = [.sound(.acknowledged), .say("Orthostatic part skipped today.")]
            if hasFinishedCapture { actions += complete(at: t) }
            return actions
        case .promptStand, .captureStanding:
            // Too late to skip: the stand cue has begun.
            return press == .long ? [.sound(.wrongKey)] : []
        case .paused:
            return [.sound(.wrongKey)]
        case .offeringResume:
            return press == .long ? restart(now: now) : resume(at: t)
        case .offeringRetry:
            return retry(now: now)
        case .saving:
            return []
        case .readout:
            if case .readout(var shown) = state {
                shown.showsComposite = true
                shown.showsNotLikeYou = false
                shown.channel = nil
                shown.channelUntilMs = nil
                shown.untilMs = t + timings.readoutMs
                state = .readout(shown)
            }
            return []
        }
    }

    mutating func pressKey(_ key: KeypadKey, at t: Int64) -> [Action] {
        switch phase {
        case .idle, .showingFault, .saving:
            // Idle keys belong to the questionnaire; a fault's code is cleared by the key.
            if phase == .showingFault { toIdle() }
            return []
        case .readout:
            if case .digit(let n) = key, (1...5).contains(n), case .readout(var shown) = state {
                shown.channel = n
                shown.channelUntilMs = t + Int64(LightPattern.countDurationMs(n) + Indication.channelShowMs)
                shown.showsComposite = false
                shown.showsNotLikeYou = false
                shown.untilMs = t + timings.readoutMs
                state = .readout(shown)
                return []
            }
            return [.sound(.wrongKey)]
        default:
            if key == .star { return cancelSession(at: t) }
            return [.sound(.wrongKey)]
        }
    }

    mutating func measure(overwrite: Bool, now: SessionTime) -> [Action] {
        switch phase {
        case .idle, .showingFault:
            return requestStart(now: now, overwrite: overwrite, fromPanel: false)
        case .readout:
            toIdle()
            return requestStart(now: now, overwrite: overwrite, fromPanel: false)
        case .confirmingRemeasure:
            return overwrite ? start(now: now, overwrite: true) : [.declined(.alreadyMeasured)]
        default:
            return [.declined(.busy)]
        }
    }

    mutating func cancelRequest(at t: Int64) -> [Action] {
        switch phase {
        case .idle: return [.declined(.nothingToCancel)]
        case .readout, .showingFault:
            toIdle()
            return []
        case .saving:
            // The write is one transaction already under way: it commits whole or not at all.
            return [.declined(.busy)]
        default:
            return cancelSession(at: t)
        }
    }

    mutating func requestStart(now: SessionTime, overwrite: Bool, fromPanel: Bool) -> [Action] {
        let t = now.monotonicMs
        guard day.canStartMeasurement else {
            let record = Action.record(AnalyticsRecord(MorningFault.questionnaireMissing.analyticsEvent))
            guard fromPanel else { return [record, .declined(.questionnaireMissing)] }
            // DESIGN §1: low beep, red blinks twice.
            enterFault(.questionnaireMissing, at: t, showMs: Int64(LightPattern.countDurationMs(2)))
            return [.sound(.refused), record, .say(MorningFault.questionnaireMissing.sentence)]
        }
        if day.measured && !overwrite {
            guard fromPanel else { return [.declined(.alreadyMeasured)] }
            toIdle()
            enter(.confirmingRemeasure(untilMs: t + timings.confirmMs), at: t)
            return [
                .sound(.confirmAsked),
                .say(
                    "Today is already measured: press GO again within \(SessionTimings.spoken(timings.confirmMs)) to replace it."
                ),
            ]
        }
        return start(now: now, overwrite: day.measured)
    }

    mutating func start(now: SessionTime, overwrite: Bool) -> [Action] {
        let t = now.monotonicMs
        toIdle()
        resetMeasurement(now: now)
        self.overwrite = overwrite
        sessionDate = day.today
        enter(.connecting(deadlineMs: t + timings.connectTimeoutMs), at: t)
        return [.connectStrap, .record(AnalyticsRecord("session_started", detail: overwrite ? "remeasure" : nil))]
    }

    // MARK: The strap

    mutating func strapConnected(at t: Int64) -> [Action] {
        strapLinked = true
        return phase == .connecting ? enterConnectedLive(at: t) : []
    }

    mutating func enterConnectedLive(at t: Int64) -> [Action] {
        strapLinked = true
        enter(.connectedLive(deadlineMs: t + timings.firstRRWaitMs, firstHeartRateMs: nil), at: t)
        return []
    }

    mutating func strapGone(at t: Int64) -> [Action] {
        strapLinked = false
        switch phase {
        case .connectedLive:
            // Nothing measured yet: back to connecting; the link reconnects by itself.
            enter(.connecting(deadlineMs: t + timings.connectTimeoutMs), at: t)
            return []
        case .settleLying, .captureRMSSD, .captureLyingHR, .promptStand, .captureStanding:
            return pause(at: t, reason: "disconnected")
        case .offeringResume:
            enter(.paused(untilMs: t + timings.reconnectWaitMs), at: t)
            return [.sound(.strapLost)]
        default:
            return []
        }
    }

    mutating func strapFailed(_ failure: MorningFault, at t: Int64) -> [Action] {
        switch phase {
        case .connecting, .connectedLive, .settleLying, .captureRMSSD, .captureLyingHR, .promptStand,
            .captureStanding, .paused, .offeringResume:
            return endWithFault(failure, at: t)
        default:
            return []
        }
    }

    mutating func heartRate(bpm: UInt16, rr: [UInt16], at t: Int64) -> [Action] {
        var actions: [Action] = []
        switch phase {
        case .connecting:
            // A notification proves the link even before its connected event.
            actions += enterConnectedLive(at: t)
        case .connectedLive, .settleLying, .captureRMSSD, .captureLyingHR, .promptStand, .captureStanding, .paused,
            .offeringResume:
            break
        default:
            // Idle, retry offer, saving, readout: the strap may still be notifying; nothing is measured.
            return []
        }
        strapLinked = true
        keep(bpm: bpm, rr: rr, at: t)
        switch state {
        case .connectedLive(let deadline, nil):
            state = .connectedLive(deadlineMs: deadline, firstHeartRateMs: t)
        default: break
        }
        switch phase {
        case .connectedLive:
            guard !rr.isEmpty else { return actions }
            // The first RR: the person has been lying still since GO; the settle starts now.
            actions += beginSettle(at: t)
            return actions + feed(rr, at: t, contact: bpm != 0)
        case .paused:
            enter(.offeringResume(untilMs: t + timings.resumeOfferMs), at: t)
            return actions + [
                .sound(.strapBack),
                .say(
                    "Strap back: GO resumes, hold GO \(SessionTimings.spoken(timings.longPressMs)) restarts, * cancels."
                ),
            ]
        case .settleLying, .captureRMSSD:
            return actions + feed(rr, at: t, contact: bpm != 0)
        default:
            return actions
        }
    }

    /// Keeps every notification of the session (the person's data; re-analysis), timed from GO.
    mutating func keep(bpm: UInt16, rr: [UInt16], at t: Int64) {
        let since = t - sessionStartMs
        for raw in rr { rawRR.append(RRInterval(raw: raw, receivedAtMs: since)) }
        heartRates.append(HeartRateReading(bpm: bpm, receivedAtMs: since))
        lastSampleMs = t
        lastBPM = bpm
        lastHadRR = !rr.isEmpty
    }

    /// Feeds RR to the core's rMSSD window, which decides when the capture is done (spec §5.1). `contact`: the
    /// notification gave a heart rate; a strap without skin contact reports none (StrapLink reads the contact
    /// bits into a zero rate), and the RR it still sends are not beats the box can trust.
    mutating func feed(_ rr: [UInt16], at t: Int64, contact: Bool) -> [Action] {
        guard !degraded, window != nil else { return [] }
        var sum = 0.0
        for raw in rr { sum += RRInterval(raw: raw, receivedAtMs: 0).milliseconds }
        window?.beginNotification(rrSumMs: sum, at: t)  // a gap before it breaks the pair (spec §5.1)
        for raw in rr {
            let ms = RRInterval(raw: raw, receivedAtMs: 0).milliseconds
            let progress = contact ? window?.append(ms, at: t) : window?.appendWithoutContact(ms, at: t)
            if case .complete(let result)? = progress { return endCapture(result, at: t) }
        }
        return []
    }

    // MARK: Phases

    mutating func beginSettle(at t: Int64) -> [Action] {
        enter(.settleLying(untilMs: t + timings.settleMs), at: t)
        if !hasFinishedCapture {
            settleStartMs = t
            window = degraded ? nil : RMSSDWindow(startMs: t, configuration: windowConfiguration)
        }
        return []
    }

    var windowConfiguration: RMSSDWindow.Configuration {
        var configuration = RMSSDWindow.Configuration.morning
        configuration.settleMs = timings.settleMs
        configuration.maximumCaptureMs = timings.captureMaxMs
        configuration.artifactRule = artifactRule
        return configuration
    }

    /// True once the rMSSD part (or its degraded 60 s of heart rate) is done and kept.
    var hasFinishedCapture: Bool { capture != nil || degradedCaptureDone }

    mutating func goDegraded(at t: Int64) -> [Action] {
        degraded = true
        window = nil
        let fault = MorningFault.rrUnavailable
        return beginSettle(at: t) + [
            .sound(.fault), .say(fault.sentence), .record(AnalyticsRecord(fault.analyticsEvent)),
        ]
    }

    mutating func endCapture(_ result: HRVWindowResult, at t: Int64) -> [Action] {
        window = nil
        captureStartMs = result.captureStartMs
        captureEndMs = result.captureEndMs
        if case .fail(let failure) = result.quality {
            let fault = MorningFault(failure)
            enter(.offeringRetry(fault, untilMs: t + timings.retryOfferMs), at: t)
            skipOfferUntilMs = nil
            return [
                .sound(.fault),
                .say(
                    fault.sentence(timings: timings)
                        + " Press GO within \(SessionTimings.spoken(timings.retryOfferMs)) to retry."),
                .record(AnalyticsRecord(fault.analyticsEvent, detail: fault.code)),
            ]
        }
        capture = result
        return skipConfirmed ? complete(at: t) : beginLying(at: t)
    }

    mutating func endDegradedCapture(at t: Int64) -> [Action] {
        captureEndMs = t
        degradedCaptureDone = true
        degradedMeanHR =
            OrthostaticCalculator.meanHeartRate(
                rr: rawRR, heartRates: heartRates, phase: (captureStartMs - sessionStartMs)..<(t - sessionStartMs))?.bpm
        return skipConfirmed ? complete(at: t) : beginLying(at: t)
    }

    mutating func beginLying(at t: Int64) -> [Action] {
        enter(.captureLyingHR(untilMs: t + timings.lyingMs), at: t)
        lyingStartMs = t
        return []
    }

    /// Stand cue (spec §6.1 PromptStand; DESIGN §1 step 4): beeps at 0, ⅓ and ⅔ of the cue, long tone at its end.
    mutating func beginStandCue(at t: Int64) -> [Action] {
        lyingEndMs = t
        enter(.promptStand(beepsGiven: 1, nextMs: t + timings.standCueMs / 3), at: t)
        return [.sound(.standCount)]
    }

    mutating func standCueTick(beepsGiven: Int, at t: Int64) -> [Action] {
        if beepsGiven < 3 {
            let given = beepsGiven + 1
            let interval = timings.standCueMs / 3
            let next = given < 3 ? phaseStartMs + Int64(given) * interval : phaseStartMs + timings.standCueMs
            state = .promptStand(beepsGiven: given, nextMs: next)
            return [.sound(.standCount)]
        }
        enter(.captureStanding(untilMs: t + timings.standingMs), at: t)
        standStartMs = t
        return [.sound(.standNow)]
    }

    /// The whole morning, handed to the store as one `save` (one transaction).
    mutating func complete(at t: Int64) -> [Action] {
        func since(_ ms: Int64) -> Int64 { ms - sessionStartMs }
        var orthostatic: OrthostaticResult?
        let status: OrthostaticStatus
        if skipConfirmed {
            status = .skipped
        } else {
            orthostatic = OrthostaticCalculator.result(
                rr: rawRR, heartRates: heartRates, lying: since(lyingStartMs)..<since(lyingEndMs),
                standing: since(standStartMs)..<since(t))
            status = orthostatic == nil ? .failed : .completed
        }
        let ranStanding = !skipConfirmed
        let marks = PhaseMarks(
            settleStartMs: since(settleStartMs), captureStartMs: since(captureStartMs),
            captureEndMs: since(captureEndMs), lyingEndMs: ranStanding ? since(lyingEndMs) : nil,
            standStartMs: ranStanding ? since(standStartMs) : nil, standEndMs: ranStanding ? since(t) : nil)
        let quality: Quality = degraded ? .fail(.rrUnavailable) : (capture?.quality ?? .fail(.tooFewBeats))
        let measurement = MorningMeasurement(
            date: sessionDate, startedAtEpoch: startedAtEpoch, durationMs: since(t),
            hrv: degraded ? nil : capture?.metrics,
            meanHRBpm: degraded ? degradedMeanHR : capture?.metrics.meanHRBpm, quality: quality,
            orthostaticStatus: status, orthostatic: orthostatic, strapAddress: strapAddress,
            strapBatteryPercent: batteryPercent, marks: marks, rawRR: Array(rawRR), heartRates: Array(heartRates))
        enter(.saving, at: t)
        skipOfferUntilMs = nil
        var actions: [Action] = [.disconnectStrap, .save(measurement, overwrite: overwrite)]
        let refused = refusedSamples
        if refused.rr + refused.heartRates > 0 {
            actions += [
                .record(
                    AnalyticsRecord(
                        "samples_refused", value: Double(refused.rr + refused.heartRates),
                        detail: "rr=\(refused.rr) hr=\(refused.heartRates)")),
                .say(
                    "The strap sent more than a morning holds: \(refused.rr) RR and \(refused.heartRates) heart rate "
                        + "readings after the first \(rawRR.count) RR were not kept."),
            ]
        }
        return actions
    }

    mutating func saved(_ readout: PanelReadout, at t: Int64) -> [Action] {
        guard phase == .saving else { return [] }
        if sessionDate == day.today { day.measured = true }
        enter(.readout(ReadoutShown(readout: readout, untilMs: t + timings.readoutMs)), at: t)
        // The store records morning_completed / hrv_quality_fail, session_duration_ms and orthostatic_skipped
        // in the morning's own transaction; only what it cannot know is recorded here.
        var actions: [Action] = [.sound(.complete)]
        if overwrite { actions.append(.record(AnalyticsRecord("remeasured"))) }
        if !readout.summary.isEmpty { actions.append(.say(readout.summary)) }
        return actions
    }

    // MARK: Pause, resume, restart, retry

    mutating func pause(at t: Int64, reason: String) -> [Action] {
        let interrupted = phase
        window = nil  // an unfinished capture restarts whole
        skipOfferUntilMs = nil
        enter(.paused(untilMs: t + timings.reconnectWaitMs), at: t)
        return [
            .sound(.strapLost),
            .say(
                "Strap lost (\(reason)): paused, waiting up to \(SessionTimings.spoken(timings.reconnectWaitMs)) for it to come back."
            ),
            .record(AnalyticsRecord("strap_dropout", detail: interrupted.rawValue)),
        ]
    }

    mutating func resume(at t: Int64) -> [Action] {
        [.sound(.acknowledged), .record(AnalyticsRecord("session_resumed"))] + beginSettle(at: t)
    }

    /// The whole morning again from the settle, the strap still connected; same day, same overwrite.
    mutating func restart(now: SessionTime) -> [Action] {
        resetMeasurement(now: now)
        return [.sound(.acknowledged), .record(AnalyticsRecord("session_restarted"))]
            + beginSettle(at: now.monotonicMs)
    }

    mutating func retry(now: SessionTime) -> [Action] {
        let t = now.monotonicMs
        let linked = strapLinked
        resetMeasurement(now: now)
        var actions: [Action] = [.sound(.acknowledged), .record(AnalyticsRecord("session_retry"))]
        if linked {
            // Wait for the next RR, as after connecting.
            actions += enterConnectedLive(at: t)
        } else {
            enter(.connecting(deadlineMs: t + timings.connectTimeoutMs), at: t)
            actions.append(.connectStrap)
        }
        return actions
    }

    // MARK: Endings

    mutating func cancelSession(at t: Int64) -> [Action] {
        let measuring = phase != .confirmingRemeasure
        toIdle()
        guard measuring else { return [.sound(.cancelled)] }
        return [
            .sound(.cancelled), .disconnectStrap, .record(AnalyticsRecord("session_cancelled")),
            .say("Session cancelled; nothing was saved."),
        ]
    }

    /// A gap longer than this in the daemon's own running, in session time, makes the phase's numbers
    /// wrong (measured: a 20 s stop while standing left a 20 s hole and a peak of 80 instead of 98 bpm).
    /// Notifications every ~1 s (DESIGN §5) make 5 s several lost beats' worth.
    public static let stallLimitMs: Int64 = 5_000
    /// The same in real time, so that a session run faster than life (tests) is not ended by a scheduler's
    /// ordinary jitter.
    public static let stallLimitRealMs: Int64 = 500

    /// True when a wake-up `lateMs` (session time) and `lateRealMs` (real time) after the deadline armed is a
    /// stall rather than ordinary lateness. Pure: the daemon measures, the core decides.
    public static func isStall(lateMs: Int64, lateRealMs: Int64) -> Bool {
        lateMs > stallLimitMs && lateRealMs > stallLimitRealMs
    }

    /// A stall while beats were being collected: the morning cannot be saved as measured. It ends with a
    /// sentence and nothing saved (the person presses GO again); outside those phases nothing was lost.
    mutating func stalled(gapMs: Int64, at t: Int64) -> [Action] {
        switch phase {
        case .settleLying, .captureRMSSD, .captureLyingHR, .promptStand, .captureStanding: break
        default: return []
        }
        toIdle()
        let seconds = (gapMs + 500) / 1000
        return [
            .sound(.cancelled), .disconnectStrap,
            .record(AnalyticsRecord("session_stalled", value: Double(gapMs))),
            .say(
                "The box itself stopped for \(seconds) s during the morning (overloaded, throttled or suspended), "
                    + "so its numbers would be wrong: nothing was saved; press GO to measure again."),
        ]
    }

    mutating func endWithFault(_ fault: MorningFault, at t: Int64, detail: String? = nil) -> [Action] {
        enterFault(fault, at: t, showMs: timings.faultShowMs)
        return [
            .disconnectStrap, .sound(.fault), .say(fault.sentence),
            .record(AnalyticsRecord(fault.analyticsEvent, detail: detail ?? fault.code)),
        ]
    }

    mutating func enterFault(_ fault: MorningFault, at t: Int64, showMs: Int64) {
        toIdle()
        enter(.showingFault(fault, untilMs: t + showMs), at: t)
    }

    /// Back to idle: whatever the phase held (a readout, a fault, an offer) is gone with it.
    mutating func toIdle() {
        state = .idle
        skipOfferUntilMs = nil
        window = nil
    }

    mutating func resetMeasurement(now: SessionTime) {
        sessionStartMs = now.monotonicMs
        startedAtEpoch = now.epochSeconds
        rawRR.reset()
        heartRates.reset()
        window = nil
        capture = nil
        degraded = false
        degradedCaptureDone = false
        degradedMeanHR = nil
        skipConfirmed = false
        skipOfferUntilMs = nil
        lastSampleMs = nil
        lastBPM = nil
        lastHadRR = false
    }

    // MARK: The clock

    mutating func tick(at t: Int64) -> [Action] {
        if let until = skipOfferUntilMs, t >= until { skipOfferUntilMs = nil }  // not confirmed: carry on
        if case .readout(var shown) = state, let until = shown.channelUntilMs, t >= until {
            shown.channel = nil
            shown.channelUntilMs = nil
            state = .readout(shown)
        }
        if let silence = silenceDeadlineMs, t >= silence {
            return pause(at: t, reason: "no data for \(SessionTimings.spoken(timings.silenceMs))")
        }
        if phase == .captureRMSSD, !degraded, case .complete(let result)? = window?.advance(to: t) {
            return endCapture(result, at: t)
        }
        guard let deadline = phaseDeadlineMs, t >= deadline else { return [] }
        // Timed phases end on their schedule, not when a busy timer got round to it: every phase lasts
        // exactly its spec length, and its edges in the marks rebuild it (lying = the 30 s before lyingEnd).
        let at = deadline
        switch state {
        case .idle, .saving:
            return []
        case .readout(var shown)
        where shown.readout.notLikeYou && !shown.showsNotLikeYou && t < at + Indication.notLikeYouShowMs:
            // The readout is over; the stretch of mornings unlike the person follows it (unless its time is past
            // too, as after a late wake-up or a clock step: then the box goes dark, as it would have by now).
            shown.showsNotLikeYou = true
            shown.showsComposite = false
            shown.channel = nil
            shown.channelUntilMs = nil
            shown.untilMs = at + Indication.notLikeYouShowMs
            state = .readout(shown)
            return []
        case .confirmingRemeasure, .readout, .showingFault:
            toIdle()
            return []
        case .connecting:
            return endWithFault(.strapNotFound, at: t)
        case .connectedLive(_, let firstHeartRateMs):
            if firstHeartRateMs != nil { return goDegraded(at: t) }
            return endWithFault(.strapLost, at: t, detail: "silent after connecting")
        case .settleLying:
            if hasFinishedCapture { return beginLying(at: at) }
            enter(.captureRMSSD(untilMs: degraded ? at + timings.degradedCaptureMs : nil), at: at)
            captureStartMs = at
            return []
        case .captureRMSSD:
            return degraded ? endDegradedCapture(at: at) : []
        case .captureLyingHR:
            return beginStandCue(at: at)
        case .promptStand(let beepsGiven, _):
            return standCueTick(beepsGiven: beepsGiven, at: at)
        case .captureStanding:
            return complete(at: at)
        case .paused:
            return endWithFault(.strapLost, at: t)
        case .offeringResume:
            return resume(at: t)
        case .offeringRetry:
            toIdle()
            return [.disconnectStrap, .say("No retry: nothing was saved.")]
        }
    }
}

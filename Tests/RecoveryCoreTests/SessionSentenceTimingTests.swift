import Testing

@testable import RecoveryCore

/// The sentences a session says name its own timings: a box configured with other timings says them,
/// never the standard ones.
@Suite struct SessionSentenceTimingTests {
    /// Every duration a sentence names, changed from its standard value.
    static var changed: SessionTimings {
        var t = SessionTimings.standard
        t.confirmMs = 7_000
        t.longPressMs = 3_000
        t.retryOfferMs = 45_000
        t.reconnectWaitMs = 90_000
        t.silenceMs = 4_000
        return t
    }

    @Test func remeasureAsksWithinItsConfirmTime() {
        var h = SessionHarness(
            day: DayContext(today: SessionHarness.today, questionnaire: SessionHarness.questionnaire, measured: true),
            timings: Self.changed)
        h.send(.go(.short))
        #expect(h.sentences.last == "Today is already measured: press GO again within 7 s to replace it.")
    }

    @Test func aRetryOfferNamesItsTime() {
        var h = SessionHarness(timings: Self.changed)
        h.strap.pattern = [1024, 1024, 2048]
        h.startMorning()
        h.run(until: .offeringRetry)
        #expect(h.sentences.last?.hasSuffix(" Press GO within 45 s to retry.") == true, "\(h.sentences)")
    }

    @Test func aLostStrapNamesTheSilenceTheWaitAndTheLongPress() {
        var h = SessionHarness(timings: Self.changed)
        h.startMorning()
        h.run(until: .captureLyingHR)
        h.strap.sending = false
        h.run(until: .paused)
        #expect(
            h.sentences.last == "Strap lost (no data for 4 s): paused, waiting up to 90 s for it to come back.",
            "\(h.sentences)")
        h.strap.sending = true
        h.strap.startMs = h.nowMs
        h.strap.lastNotifyMs = nil
        h.send(.strapConnected(address: nil, batteryPercent: nil))
        h.run(until: .offeringResume)
        #expect(h.sentences.last == "Strap back: GO resumes, hold GO 3 s restarts, * cancels.", "\(h.sentences)")
    }

    /// Each duration a sentence names, as the standard box says it: the spec's and DESIGN's numbers.
    @Test(
        "the standard timings are said as the spec's numbers",
        arguments: [
            (SessionTimings.standard.confirmMs, "5 s"), (SessionTimings.standard.longPressMs, "2 s"),
            (SessionTimings.standard.retryOfferMs, "30 s"), (SessionTimings.standard.reconnectWaitMs, "60 s"),
            (SessionTimings.standard.silenceMs, "5 s"), (SessionTimings.standard.readoutMs, "30 s"),
            (SessionTimings.standard.faultShowMs, "30 s"), (SessionTimings.standard.questionnaireIdleMs, "60 s"),
            (SessionTimings.standard.captureMaxMs, "90 s"), (SessionTimings.standard.settleMs, "15 s"),
            (SessionTimings.standard.lyingMs, "30 s"), (SessionTimings.standard.standingMs, "60 s"),
            (Int64(Indication.channelShowMs), "3 s"),
        ] as [(Int64, String)])
    func theStandardTimingsSayTheSpecsNumbers(ms: Int64, spoken: String) {
        #expect(SessionTimings.spoken(ms) == spoken)
    }

    @Test(
        "a duration that is not whole seconds is said with its fraction, never rounded to another number",
        arguments: [(1_500, "1.5 s"), (250, "0.25 s"), (2_125, "2.125 s"), (60_000, "60 s"), (90_500, "90.5 s")]
            as [(Int64, String)])
    func fractionsAreSaid(ms: Int64, spoken: String) {
        #expect(SessionTimings.spoken(ms) == spoken)
    }

    /// The one "no 60 s of clean RR in time" failure has one sentence, built from the capture's
    /// time, whether the session's fault or the stored morning's quality says it.
    @Test func tooFewBeatsIsOneSentenceBuiltFromTheCaptureTime() {
        let standard = "Too few clean beats within 90 s: lie still with the strap snug and wet, then retry."
        #expect(MorningFault.tooFewBeats.sentence == standard)
        #expect(QualityFailure.tooFewBeats.sentence == standard)
        var t = SessionTimings.standard
        t.captureMaxMs = 120_000
        #expect(MorningFault.tooFewBeats.sentence(timings: t).contains("within 120 s:"))
        #expect(MorningFault.tooManyArtifacts.sentence(timings: t) == MorningFault.tooManyArtifacts.sentence)
    }

    /// Every duration the light table, the sounds' and states' meanings and the phase titles name, changed
    /// from its standard value.
    static var allChanged: SessionTimings {
        var t = changed
        t.faultShowMs = 40_000
        t.questionnaireIdleMs = 75_000
        return t
    }

    @Test func everySentenceOfTheTableNamesItsOwnTimings() {
        let table = LightTable.markdown(timings: Self.allChanged)
        for phrase in [
            "a 7 s question", "GO within 7 s overwrites it", "GO within 7 s confirms", "hold GO 3 s restarts",
            "GO within 45 s retries", "red code for 40 s after the session ends", "75 s without a key abandons it",
            "questionnaire abandoned after 75 s without a key", "hold 3 s before the stand cue",
            "| questionnaire idle, abandoned after | 75 s |",
        ] {
            #expect(table.contains(phrase), "\(phrase)")
        }
        #expect(LightTable.markdown().contains("questionnaire abandoned after 60 s without a key"))
        let meanings = Indication.catalogue.map { $0.meaning(timings: Self.allChanged) }
            + Sound.allCases.map { $0.meaning(timings: Self.allChanged) }
        for standard in [" 5 s", " 2 s", " 30 s", " 60 s"] {
            #expect(!meanings.contains { $0.contains(standard) }, "\(standard)")
        }
    }

    @Test func theRemeasureTitleAndTheQuestionnaireTimeoutFollowTheirTimings() {
        var h = SessionHarness(
            day: DayContext(today: SessionHarness.today, questionnaire: SessionHarness.questionnaire, measured: true),
            timings: Self.allChanged)
        h.send(.go(.short))
        #expect(h.session.title == "Today is measured: GO again within 7 s to replace it")
        let entry = QuestionnaireEntry(
            date: SessionHarness.today, habits: [], startedAtMs: 1_000,
            idleTimeoutMs: Self.allChanged.questionnaireIdleMs)
        #expect(entry.nextDeadlineMs == 76_000)
    }
}

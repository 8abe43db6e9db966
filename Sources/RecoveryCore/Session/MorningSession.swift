/// The morning measurement as a pure state machine (RecoveryDeck spec §6.1 combined flow, §6.2 HRV-only
/// path, §4.2 connection UX, §5.1 quality; DESIGN §1): panel presses, strap notifications, store answers
/// and a hand-moved clock in; strap commands, sounds, the finished morning and analytics out. What the
/// lamps show is `indication`, derived from the state; the daemon applies it when it changes.
///
/// The flow: Idle → Connecting → ConnectedLive → SettleLying (15 s) → CaptureRMSSD (until the core's
/// `RMSSDWindow` is satisfied, or 90 s) → CaptureLyingHR (30 s) → PromptStand (3 s: 3-2-1, long tone) →
/// CaptureStanding (60 s) → Saving (one `save` action: one transaction) → Readout → Idle. Cancel (`*`,
/// `recoverydeck cancel`) and faults leave from any state, and nothing is saved unless the whole morning
/// is: a session never stores a half morning.
///
/// Decisions the spec leaves open, made here:
/// - The session starts at GO (or `recoverydeck measure`); the settle starts at the first RR after the
///   strap connects (the person is already lying still).
/// - HR without RR for `firstRRWaitMs` after connecting: degraded mode (spec §4.1): the spec's sentence is
///   said, the capture is 60 s of heart rate, and the morning is saved with `rmssd` null, quality
///   `rr_unavailable`, the capture's mean HR from BPM, and the orthostatic numbers from BPM. The spec's
///   "store mean HR only" is kept for the capture (no rMSSD, SDNN or mean RR from BPM); the orthostatic
///   part keeps its numbers because spec §5.2 allows the mean of BPM samples per phase and they are
///   measured heart rate. The day is not complete (spec §7.2: rMSSD missing), so it never counts towards
///   the 14 complete days that build baselines. A degraded session stays degraded.
/// - Holding GO 2 s before the stand cue asks to skip the orthostatic part; GO within 5 s confirms
///   (spec §6.2). Confirmed during the lying phase, the morning completes at once.
/// - Strap lost (disconnected, or silent for `silenceMs`) while measuring: pause. When it is back, GO
///   resumes, holding GO restarts, `*` cancels; no answer resumes by itself. Resuming always begins with
///   a fresh settle (reaching for GO is a movement), then restarts the interrupted part: the rMSSD
///   capture if it had not finished, else the orthostatic part from lying HR, because gapPeak and gapAvg
///   compare standing with the lying HR just before it. Finished parts are kept.
/// - Quality fail: nothing is saved; GO within 30 s retries from the settle; else the session ends.
public struct MorningSession: Sendable {
    public enum Phase: String, CaseIterable, Hashable, Sendable {
        case idle
        case confirmingRemeasure
        case connecting
        case connectedLive
        case settleLying
        case captureRMSSD
        case captureLyingHR
        case promptStand
        case captureStanding
        case paused
        case offeringResume
        case offeringRetry
        case saving
        case readout
        case showingFault
    }

    public enum Event: Hashable, Sendable {
        case go(GoPress)
        case key(KeypadKey)
        /// `recoverydeck measure [--overwrite]`: like GO, with the remeasure confirmation given up front.
        case measure(overwrite: Bool)
        /// `recoverydeck cancel`.
        case cancel
        /// Today's facts, whenever they change.
        case day(DayContext)
        case strapConnected(address: String?, batteryPercent: Int?)
        case strapDisconnected
        /// The link gave up (no adapter, nothing paired, not found).
        case strapFailed(MorningFault)
        /// One Heart Rate Measurement notification: BPM and the RR (1/1024 s) it carried.
        case heartRate(bpm: UInt16, rr: [UInt16])
        /// The store committed the morning; the daemon worked out the readout from the history.
        case saved(PanelReadout)
        /// A deadline passed.
        case tick
        /// The daemon itself did not run for `gapMs` (session time) past a deadline it had armed: stopped,
        /// swapped out, throttled. Whatever the phase was collecting has a hole of that length.
        case stalled(gapMs: Int64)
    }

    public enum Action: Hashable, Sendable {
        case connectStrap
        case disconnectStrap
        case sound(Sound)
        /// Write the finished morning in one transaction, replacing today's when `overwrite`.
        case save(MorningMeasurement, overwrite: Bool)
        case record(AnalyticsRecord)
        /// One sentence for the journal and `recoverydeck watch`.
        case say(String)
        /// A `measure` request that did not start a session, and why.
        case declined(Decline)
    }

    public enum Decline: String, Hashable, Sendable {
        case questionnaireMissing = "questionnaire_missing"
        case alreadyMeasured = "already_measured"
        case busy
        case nothingToCancel = "nothing_to_cancel"

        public var sentence: String {
            switch self {
            case .questionnaireMissing: MorningFault.questionnaireMissing.sentence
            case .alreadyMeasured: "Today is already measured: `recoverydeck measure --overwrite` replaces it."
            case .busy: "A morning session is already running: `recoverydeck watch` follows it."
            case .nothingToCancel: "No session is running."
            }
        }
    }

    public let timings: SessionTimings
    /// The artifact rule the rMSSD window judges beats with (the `artifact_rule` setting; docs/artifacts.md).
    public var artifactRule: ArtifactRule = .default
    /// The phase and the data only it has (`MorningSession+State.swift`).
    var state = State.idle {
        didSet { phase = state.phase }
    }
    /// The phase's name, as the control socket and `watch --json` publish it: `state.phase`, kept beside it
    /// because it is asked several times per notification.
    public private(set) var phase = Phase.idle
    public internal(set) var day: DayContext

    // Timers.
    var phaseStartMs: Int64 = 0
    /// The skip offer (spec §6.2) runs beside the phases from connecting to lying, so it is not one phase's.
    var skipOfferUntilMs: Int64?

    // The session being measured.
    var sessionStartMs: Int64 = 0
    var startedAtEpoch: Int64 = 0
    var sessionDate: LocalDate
    var overwrite = false
    /// Whether the strap link is up, as far as the session knows.
    var strapLinked = false
    var strapAddress: String?
    var batteryPercent: Int?
    var lastSampleMs: Int64?
    var lastBPM: UInt16?
    var lastHadRR = false
    var degraded = false
    /// Every RR and BPM reading of the morning, in order of arrival, in fixed-capacity stores allocated once
    /// (DESIGN §4): past capacity a sample is refused and counted, never stored by growing.
    var rawRR: RingBuffer<RRInterval>
    var heartRates: RingBuffer<HeartRateReading>
    var window: RMSSDWindow?
    var capture: HRVWindowResult?
    var degradedMeanHR: Double?
    var degradedCaptureDone = false
    var settleStartMs: Int64 = 0
    var captureStartMs: Int64 = 0
    var captureEndMs: Int64 = 0
    var lyingStartMs: Int64 = 0
    var lyingEndMs: Int64 = 0
    var standStartMs: Int64 = 0
    var skipConfirmed = false

    public init(day: DayContext, timings: SessionTimings = .standard) {
        self.day = day
        self.timings = timings
        self.sessionDate = day.today
        let capacity = SessionCapacity(timings: timings)
        rawRR = RingBuffer(capacity: capacity.rrIntervals)
        heartRates = RingBuffer(capacity: capacity.heartRates)
    }

    /// RR intervals and BPM readings of this morning refused because its stores were full (a strap flooding the
    /// session, or a morning interrupted more than once); the saved morning holds the samples before them.
    public var refusedSamples: (rr: Int, heartRates: Int) { (rawRR.refusedCount, heartRates.refusedCount) }

    /// True from GO to the end of saving: the panel's keys belong to the session, not the questionnaire.
    public var isMeasuring: Bool {
        switch phase {
        case .idle, .readout, .showingFault: false
        default: true
        }
    }

    /// True while keys mean something to the session (measuring, or the readout's channel keys).
    public var wantsKeys: Bool { isMeasuring || phase == .readout }

    /// The earliest time the session needs to be woken (`handle(.tick, …)`), nil when none.
    /// Asked after every event (the daemon arms its timer with it), so it allocates nothing.
    public var nextDeadlineMs: Int64? {
        var earliest: Int64?
        func consider(_ deadline: Int64?) {
            if let deadline, deadline < earliest ?? .max { earliest = deadline }
        }
        consider(phaseDeadlineMs)
        consider(skipOfferUntilMs)
        if case .readout(let shown) = state { consider(shown.channelUntilMs) }
        consider(silenceDeadlineMs)
        if phase == .captureRMSSD { consider(window?.deadlineMs) }
        return earliest
    }

    var silenceDeadlineMs: Int64? {
        guard isSampling, let lastSampleMs else { return nil }
        return lastSampleMs + timings.silenceMs
    }

    /// Phases in which the strap is expected to notify about once a second.
    var isSampling: Bool {
        switch phase {
        case .settleLying, .captureRMSSD, .captureLyingHR, .promptStand, .captureStanding: true
        default: false
        }
    }

    /// What the lamps show now.
    public var indication: Indication {
        switch state {
        case .idle: return .dark
        case .confirmingRemeasure: return .confirmRemeasure
        case .connecting, .connectedLive: return skipOfferUntilMs != nil ? .confirmSkip : .connecting
        case .settleLying, .captureRMSSD, .captureLyingHR, .promptStand, .captureStanding, .saving:
            if skipOfferUntilMs != nil { return .confirmSkip }
            return degraded ? .measuringWithoutRR : .measuring
        case .paused: return .reconnecting
        case .offeringResume: return .offerResume
        case .offeringRetry(let fault, _): return .offerRetry(fault)
        case .readout(let shown):
            if let channel = shown.channel { return .channel(channel, shown.readout.channels[channel - 1]) }
            if shown.showsNotLikeYou { return .notLikeYou }
            return shown.showsComposite ? .readout(shown.readout.composite) : .dark
        case .showingFault(let fault, _):
            return fault == .questionnaireMissing ? .refused : .fault(fault)
        }
    }

    // MARK: Events

    public mutating func handle(_ event: Event, at now: SessionTime) -> [Action] {
        let actions = dispatch(event, at: now)
        if actions.contains(.disconnectStrap) { strapLinked = false }
        return actions
    }

    mutating func dispatch(_ event: Event, at now: SessionTime) -> [Action] {
        let t = now.monotonicMs
        switch event {
        case .go(let press): return go(press, now: now)
        case .key(let key): return pressKey(key, at: t)
        case .measure(let overwrite): return measure(overwrite: overwrite, now: now)
        case .cancel: return cancelRequest(at: t)
        case .day(let context):
            day = context
            return []
        case .strapConnected(let address, let battery):
            if let address { strapAddress = address }
            if let battery { batteryPercent = battery }
            return strapConnected(at: t)
        case .strapDisconnected: return strapGone(at: t)
        case .strapFailed(let failure): return strapFailed(failure, at: t)
        case .heartRate(let bpm, let rr): return heartRate(bpm: bpm, rr: rr, at: t)
        case .saved(let readout): return saved(readout, at: t)
        case .tick: return tick(at: t)
        case .stalled(let gap): return stalled(gapMs: gap, at: t)
        }
    }
}

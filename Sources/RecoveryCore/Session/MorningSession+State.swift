extension MorningSession {
    /// Where the session is, each phase with the data only it has: its deadline, the fault it shows, the readout
    /// it lights. `phase` names it, as the control socket and `watch --json` publish it. What a morning gathers
    /// across phases (its samples, the finished parts kept through a pause, the skip offer) stays beside it, and
    /// so does the rMSSD window of settle and capture: it changes on every beat, and a value in an enum case
    /// cannot be changed in place, only copied out and back (several KiB each way, on the per-sample path).
    enum State: Hashable, Sendable {
        case idle
        /// GO again before `untilMs` replaces today's measurement (spec §6.1).
        case confirmingRemeasure(untilMs: Int64)
        /// Waiting for the strap: `strapNotFound` at `deadlineMs`.
        case connecting(deadlineMs: Int64)
        /// Linked, waiting for the first RR; heart rate without RR first came at `firstHeartRateMs`. At
        /// `deadlineMs`, degraded mode if it came, else `strapLost`.
        case connectedLive(deadlineMs: Int64, firstHeartRateMs: Int64?)
        case settleLying(untilMs: Int64)
        /// `untilMs` only in degraded mode (60 s of heart rate); otherwise the rMSSD window decides when it ends.
        case captureRMSSD(untilMs: Int64?)
        case captureLyingHR(untilMs: Int64)
        /// `beepsGiven` of the 3-2-1 so far; the next beep, or the long tone after the third, at `nextMs`.
        case promptStand(beepsGiven: Int, nextMs: Int64)
        case captureStanding(untilMs: Int64)
        /// The strap is gone: `strapLost` at `untilMs` unless it is back.
        case paused(untilMs: Int64)
        /// The strap is back: the session resumes by itself at `untilMs`.
        case offeringResume(untilMs: Int64)
        /// The capture failed with `fault`: GO before `untilMs` retries.
        case offeringRetry(MorningFault, untilMs: Int64)
        case saving
        case readout(ReadoutShown)
        /// `fault`'s code blinks until `untilMs` (or a key clears it).
        case showingFault(MorningFault, untilMs: Int64)

        var phase: Phase {
            switch self {
            case .idle: .idle
            case .confirmingRemeasure: .confirmingRemeasure
            case .connecting: .connecting
            case .connectedLive: .connectedLive
            case .settleLying: .settleLying
            case .captureRMSSD: .captureRMSSD
            case .captureLyingHR: .captureLyingHR
            case .promptStand: .promptStand
            case .captureStanding: .captureStanding
            case .paused: .paused
            case .offeringResume: .offeringResume
            case .offeringRetry: .offeringRetry
            case .saving: .saving
            case .readout: .readout
            case .showingFault: .showingFault
            }
        }

        /// When the phase ends by itself, nil when it does not.
        var deadlineMs: Int64? {
            switch self {
            case .idle, .saving: nil
            case .confirmingRemeasure(let until), .settleLying(let until), .captureLyingHR(let until),
                .captureStanding(let until), .paused(let until), .offeringResume(let until):
                until
            case .connecting(let deadline), .connectedLive(let deadline, _): deadline
            case .captureRMSSD(let until): until
            case .promptStand(_, let next): next
            case .offeringRetry(_, let until), .showingFault(_, let until): until
            case .readout(let shown): shown.untilMs
            }
        }
    }

    /// The readout on the lamps (DESIGN §1 step 5): the composite, or one channel after its key, until `untilMs`.
    struct ReadoutShown: Hashable, Sendable {
        var readout: PanelReadout
        var showsComposite = true
        /// The channel key pressed (1–5), shown until `channelUntilMs`.
        var channel: Int?
        var channelUntilMs: Int64?
        var untilMs: Int64
        /// The readout is over and the "Not like you" pattern follows it, until `untilMs`.
        var showsNotLikeYou = false
    }

    /// The fault the lamps show now (nil unless showing one).
    var fault: MorningFault? {
        if case .showingFault(let fault, _) = state { fault } else { nil }
    }

    /// The deadline of the phase, nil when it has none.
    var phaseDeadlineMs: Int64? { state.deadlineMs }

    /// Enters `state` at `t`: the phase's clock starts.
    mutating func enter(_ state: State, at t: Int64) {
        self.state = state
        phaseStartMs = t
    }
}

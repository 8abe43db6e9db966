/// Everything that can go wrong at the bedside, each with its own red blink code, one sentence that
/// says what to do, and the local analytics event it records (RecoveryDeck spec §13 error catalogue,
/// adapted to a panel of lamps; spec §4.1, §4.2, §5.1, §6.3, §7.3 for the cases).
///
/// The raw value is the number of red blinks, so a code can be read off the box and looked up here,
/// in `deploy/LIGHTS.md`, or over SSH (`recoverydeck watch` and the journal print the sentence).
public enum MorningFault: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// No usable Bluetooth controller (missing, powered off, rfkill-blocked, or no permission).
    case bluetoothUnavailable = 1
    /// GO before today's questionnaire (spec §6.3 gate; DESIGN §1: "low beep, red blinks twice").
    case questionnaireMissing = 2
    /// No strap has been paired, so there is nothing to connect to.
    case noStrapPaired = 3
    /// The paired strap did not connect within the connect timeout (spec §7.3 `ble_connect_fail`).
    case strapNotFound = 4
    /// The strap went away mid-session, or fell silent, and did not come back in time (spec §4.2).
    case strapLost = 5
    /// Heart rate arrives without RR intervals: the session continues in degraded mode (spec §4.1).
    case rrUnavailable = 6
    /// Fewer than 45 accepted beats, or under 60 s of accepted RR, within 90 s (spec §5.1).
    case tooFewBeats = 7
    /// More than 20 % of the beats rejected as artifacts (spec §5.1).
    case tooManyArtifacts = 8
    // 9 is retired: it blinked a store refusal, which the spool made impossible (a finished morning is
    // filed by the daemon, never refused back to the session); the number stays unused so 10 keeps its meaning.
    /// The clock guard refused to date a record: the kernel's clock is not synchronised and today is not
    /// after the newest stored day (`ClockGuard`); GO, `measure` and the keypad's `#` file nothing.
    case clockUnsynchronised = 10
    /// GO while a restore holds the database's writes (the daemon's pause for `recoverydeck restore`): nothing
    /// starts until it is done, a few seconds.
    case restoring = 11

    /// True for the faults that end a session and then blink their code; the others show as the gate's
    /// refusal (questionnaire), degraded measuring (RR unavailable) or a retry offer (quality).
    public var endsSession: Bool {
        switch self {
        case .bluetoothUnavailable, .noStrapPaired, .strapNotFound, .strapLost: true
        case .questionnaireMissing, .rrUnavailable, .tooFewBeats, .tooManyArtifacts, .clockUnsynchronised, .restoring:
            false
        }
    }

    /// Red blinks in the code.
    public var blinkCode: Int { rawValue }

    /// The one sentence the person reads in the journal, `recoverydeck watch` and the CLI.
    public var sentence: String {
        switch self {
        case .bluetoothUnavailable:
            "Bluetooth is not available: check that the adapter is present, powered and not blocked (rfkill)."
        case .questionnaireMissing:
            "Today's questionnaire comes first: key in the five scores (or run `recoverydeck checkin`), then press GO."
        case .noStrapPaired:
            "No strap is paired: put the H10 on and run `recoverydeck pair` once."
        case .strapNotFound:
            "The strap was not found: wet the electrodes, put the H10 on, and close any phone app that holds it."
        case .strapLost:
            "The strap was lost and did not come back in time: nothing was saved; press GO to start again."
        case .rrUnavailable:
            // Verbatim from RecoveryDeck spec §4.1.
            "RR intervals not available — ensure H10 is snug, charged, and not connected exclusively elsewhere; prefer H10 in heart rate mode."
        case .tooFewBeats:
            SessionTimings.standard.tooFewBeatsSentence
        case .tooManyArtifacts:
            "Too many beats were rejected as artifacts: wet the electrodes, snug the strap, lie still, then retry."
        case .clockUnsynchronised:
            ClockGuard.sentence
        case .restoring:
            "The database is being restored; start the morning again in a moment."
        }
    }

    /// The sentence as a box running on `timings` says it (only the capture's time varies).
    public func sentence(timings: SessionTimings) -> String {
        self == .tooFewBeats ? timings.tooFewBeatsSentence : sentence
    }

    /// The local analytics event this fault records (spec §7.3 names where the spec has one).
    public var analyticsEvent: String {
        switch self {
        case .bluetoothUnavailable, .noStrapPaired, .strapNotFound: "ble_connect_fail"
        case .questionnaireMissing: "gate_refused"
        case .strapLost: "strap_lost"
        case .rrUnavailable: "rr_unavailable"
        case .tooFewBeats, .tooManyArtifacts: "hrv_quality_fail"
        case .clockUnsynchronised: "clock_refused"
        // None: the database is being rewritten, so the routine records nothing for it.
        case .restoring: ""
        }
    }

    /// A short machine-readable name (control protocol, JSON, analytics detail).
    public var code: String {
        switch self {
        case .bluetoothUnavailable: "bluetooth_unavailable"
        case .questionnaireMissing: "questionnaire_missing"
        case .noStrapPaired: "no_strap_paired"
        case .strapNotFound: "strap_not_found"
        case .strapLost: "strap_lost"
        case .rrUnavailable: "rr_unavailable"
        case .tooFewBeats: "too_few_beats"
        case .tooManyArtifacts: "too_many_artifacts"
        case .clockUnsynchronised: "clock_unsynchronised"
        case .restoring: "restoring"
        }
    }

    public var description: String { code }

    /// The fault for a failed rMSSD capture.
    public init(_ failure: QualityFailure) {
        switch failure {
        case .tooFewBeats: self = .tooFewBeats
        case .tooManyArtifacts: self = .tooManyArtifacts
        case .rrUnavailable: self = .rrUnavailable
        }
    }
}

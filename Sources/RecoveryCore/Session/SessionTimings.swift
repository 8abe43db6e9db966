/// Every duration the morning session runs on, in ms of session time (the daemon's monotonic clock,
/// scaled by the demo's speed factor). The protocol's numbers are the spec's; the rest are the box's
/// own choices, chosen for a person lying in bed with a strap on.
public struct SessionTimings: Hashable, Sendable {
    // The protocol (RecoveryDeck spec §5.1, §6.1; DESIGN §3), from `MorningProtocol`.
    /// Lying still before the rMSSD capture; RR here are discarded for rMSSD.
    public var settleMs: Int64 = MorningProtocol.settleMs
    /// The rMSSD capture gives up this long after the settle (then the floors decide quality).
    public var captureMaxMs: Int64 = MorningProtocol.captureMaxMs
    /// HR-only strap (spec §4.1 degraded mode): the capture is 60 s of heart rate by the wall clock,
    /// matching the 60 s of RR the window would have taken.
    public var degradedCaptureMs: Int64 = 60_000
    /// Lying heart rate after the capture.
    public var lyingMs: Int64 = MorningProtocol.lyingMs
    /// The stand cue: one short beep per second (3, 2, 1), then the long tone.
    public var standCueMs: Int64 = MorningProtocol.standCueMs
    /// Standing heart rate, from the long tone.
    public var standingMs: Int64 = MorningProtocol.standingMs

    // The box's own (documented in deploy/LIGHTS.md and docs/panel.md).
    /// GO to a live strap: after this the session ends with `strapNotFound`.
    public var connectTimeoutMs: Int64 = 30_000
    /// Connected: if heart rate arrives without RR for this long the session goes on in degraded mode;
    /// if nothing at all arrives, it ends with `strapLost`.
    public var firstRRWaitMs: Int64 = 10_000
    /// While measuring, no notification for this long counts as losing the strap (an H10 notifies about
    /// once a second; a link can stay up after the strap stops sending).
    public var silenceMs: Int64 = 5_000
    /// Paused: the strap must be back within this long, or the session ends with `strapLost` and
    /// nothing is saved.
    public var reconnectWaitMs: Int64 = 60_000
    /// Strap back: with no answer within this long, the session resumes by itself (the person is lying
    /// still, which is what resuming needs).
    public var resumeOfferMs: Int64 = 15_000
    /// A quality failure offers a retry for this long; then the session ends, nothing saved.
    public var retryOfferMs: Int64 = 30_000
    /// "GO again" confirmations: remeasure (spec §6.1) and skipping the orthostatic part (spec §6.2).
    public var confirmMs: Int64 = 5_000
    /// GO held this long is a long press (DESIGN §2); the panel recognises it with this value and the
    /// sentences name it.
    public var longPressMs: Int64 = 2_000
    /// The readout stays lit this long after the last press (DESIGN §1 step 5).
    public var readoutMs: Int64 = 30_000
    /// A fault's code blinks this long, unless a key or GO clears it sooner.
    public var faultShowMs: Int64 = 30_000
    /// The questionnaire on the keypad is abandoned (nothing saved) this long after its last key
    /// (DESIGN §1 step 2).
    public var questionnaireIdleMs: Int64 = 60_000

    public init() {}

    /// The spec's timings.
    public static let standard = SessionTimings()

    /// A duration as the box's sentences say it: "5 s", "1.5 s".
    public static func spoken(_ ms: Int64) -> String { LightPattern.seconds(Int(ms)) }

    /// The one sentence for a capture that met neither floor (45 beats, 60 s of accepted RR) before it gave up
    /// (spec §5.1): the session's fault, the quality verdict and the CLI all say this one, with this box's time.
    public var tooFewBeatsSentence: String {
        "Too few clean beats within \(Self.spoken(captureMaxMs)): lie still with the strap snug and wet, then retry."
    }

    /// The nominal rMSSD capture: the 60 s of accepted RR the quality floor asks for (spec §5.1).
    public var nominalCaptureMs: Int64 { Int64(Quality.minimumAcceptedSumMs) }

    /// The longest a complete morning can take with no drop-out: connect, settle, full capture,
    /// lying, cue, standing.
    public var longestUninterruptedMs: Int64 {
        connectTimeoutMs + firstRRWaitMs + settleMs + captureMaxMs + lyingMs + standCueMs + standingMs
    }

    /// The longest a session keeps samples for (`SessionCapacity`): from the first notification (HR without RR for
    /// up to `firstRRWaitMs`) through settle, full capture, lying, cue and standing, plus one drop-out at the worst
    /// moment: the strap back just before giving up, the resume offer left to run out, then a fresh settle and the
    /// longer of the two parts a resume restarts (the capture, or lying, cue and standing).
    public var longestRecordingMs: Int64 {
        let morning = firstRRWaitMs + settleMs + captureMaxMs + lyingMs + standCueMs + standingMs
        let rerun = settleMs + max(captureMaxMs, lyingMs + standCueMs + standingMs)
        return morning + resumeOfferMs + rerun
    }
}

/// Every moment the buzzer speaks, with its pattern: the sound half of the light table.
public enum Sound: String, CaseIterable, Hashable, Sendable {
    case digitAccepted
    case wrongKey
    case habitOn
    case habitOff
    case questionnaireSaved
    case questionnaireAbandoned
    case refused
    case confirmAsked
    case acknowledged
    case standCount
    case standNow
    case strapLost
    case strapBack
    case complete
    case fault
    case cancelled
    case reminder

    public var pattern: BuzzerPattern {
        switch self {
        case .digitAccepted, .habitOn, .standCount, .confirmAsked, .acknowledged, .strapBack: .short
        case .wrongKey, .questionnaireAbandoned, .refused, .strapLost, .fault, .cancelled: .low
        case .habitOff: .doubleShort
        case .questionnaireSaved: .saved
        case .standNow: .longTone
        case .complete: .risingTriple
        case .reminder: .reminder
        }
    }

    /// When it sounds, for the table.
    public var meaning: String { meaning(timings: .standard) }

    /// When it sounds, on a box running on `timings`.
    public func meaning(timings: SessionTimings) -> String {
        switch self {
        case .digitAccepted: "a questionnaire digit accepted"
        case .wrongKey: "a key that means nothing here (nothing changes)"
        case .habitOn: "habit mode: a habit chip switched on"
        case .habitOff: "habit mode: a habit chip switched off"
        case .questionnaireSaved: "questionnaire saved (`#` after item 5)"
        case .questionnaireAbandoned: "questionnaire abandoned after \(SessionTimings.spoken(timings.questionnaireIdleMs)) without a key (nothing saved)"
        case .refused: "GO refused: today's questionnaire first (red blinks twice)"
        case .confirmAsked: "a question asked: remeasure, or skip the orthostatic part"
        case .acknowledged: "GO answered a question: skip confirmed, resume, restart, retry"
        case .standCount: "stand cue 3, 2, 1 (one per second)"
        case .standNow: "stand up now"
        case .strapLost: "strap lost mid-session: paused"
        case .strapBack: "strap back: resume or restart"
        case .complete: "morning complete and saved; the readout follows"
        case .fault: "a fault ended the session, or the unset clock refused GO or `#` (its red code blinks)"
        case .cancelled: "session cancelled (`*` or `recoverydeck cancel`); nothing saved"
        case .reminder: "morning reminder starts (only when the buzzer is enabled for it)"
        }
    }
}

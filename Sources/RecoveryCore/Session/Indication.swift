/// Every state of the panel a person can see, mapped to its lamps: the catalogue behind the light
/// table in `deploy/LIGHTS.md` (generated from `Indication.catalogue` and checked by a test), so the
/// table and the box cannot disagree.
public enum Indication: Hashable, Sendable {
    /// Nothing to say: all lamps dark.
    case dark
    /// The morning reminder (spec §10; DESIGN §1 step 1).
    case reminder
    /// The questionnaire cue before item N (1–5): the blue light blinks N times (DESIGN §1 step 2).
    case entryItem(Int)
    /// Habit mode: digit keys toggle the labelled habit chips.
    case entryHabits
    /// All five scores are in; `#` submits.
    case entryReady
    /// Today is already measured: GO again within 5 s overwrites it (spec §6.1 remeasure).
    case confirmRemeasure
    /// Connecting to the paired strap.
    case connecting
    /// Measuring with RR arriving ("RR OK").
    case measuring
    /// Measuring in degraded mode: heart rate without RR (spec §4.1).
    case measuringWithoutRR
    /// "Skip orthostatic today?" after GO was held 2 s (spec §6.2): GO confirms; measuring goes on.
    case confirmSkip
    /// Strap lost mid-session: paused, reconnecting (spec §4.2 step 5).
    case reconnecting
    /// Strap back: GO resumes (the interrupted phase restarts), holding GO restarts the morning.
    case offerResume
    /// A capture failed quality: its code blinks; GO retries (spec §5.1 step 4).
    case offerRetry(MorningFault)
    /// The morning's readout: the composite's light (DESIGN §1 step 5).
    case readout(ReadoutLight)
    /// Key N during the readout: blue blinks N, then channel N's light for 3 s.
    case channel(Int, ReadoutLight)
    /// After the readout, when this morning belongs to a stretch of mornings unlike the person: red and
    /// yellow double blink for `notLikeYouShowMs`, then dark (`recoverydeck status` gives the sentence).
    case notLikeYou
    /// A fault that ended the session: its red code, repeating.
    case fault(MorningFault)
    /// Key 9 in the evening: tonight's arm of a running experiment, green (do it) or yellow (leave it
    /// out) for 3 s.
    case tonight(TonightArm)
    /// GO refused by the gate: "low beep, red blinks twice" (DESIGN §1), once.
    case refused

    /// How long a channel's light stays on after its number (DESIGN §1 step 5).
    public static let channelShowMs = 3000
    /// How long the "Not like you" pattern follows the readout.
    public static let notLikeYouShowMs: Int64 = 10_000

    public var display: PanelDisplay {
        switch self {
        case .dark:
            return .dark
        case .reminder:
            return PanelDisplay(blue: .slowBlink)
        case .entryItem(let n):
            return PanelDisplay(blue: .count(n))
        case .entryHabits:
            return PanelDisplay(blue: .wink)
        case .entryReady:
            return PanelDisplay(blue: .doubleBlink)
        case .confirmRemeasure:
            return PanelDisplay(yellow: .fastBlink, blue: .fastBlink)
        case .connecting:
            return PanelDisplay(blue: .fastBlink)
        case .measuring:
            return PanelDisplay(blue: .solid)
        case .measuringWithoutRR:
            return PanelDisplay(red: .code(MorningFault.rrUnavailable.blinkCode), blue: .doubleBlink)
        case .confirmSkip:
            return PanelDisplay(yellow: .fastBlink, blue: .solid)
        case .reconnecting:
            return PanelDisplay(yellow: .slowBlink, blue: .fastBlink)
        case .offerResume:
            return PanelDisplay(yellow: .solid, blue: .solid)
        case .offerRetry(let fault):
            return PanelDisplay(red: .code(fault.blinkCode), yellow: .solid)
        case .readout(let light):
            return Indication.lampsShowing(light, delayMs: 0, forMs: nil)
        case .channel(let n, let light):
            let delay = LightPattern.countDurationMs(n)
            var display = Indication.lampsShowing(light, delayMs: delay, forMs: Indication.channelShowMs)
            if light != .building { display.blue = .count(n) }
            return display
        case .notLikeYou:
            return PanelDisplay(red: .doubleBlink, yellow: .doubleBlink)
        case .fault(let fault):
            return PanelDisplay(red: .code(fault.blinkCode))
        case .refused:
            return PanelDisplay(red: .count(MorningFault.questionnaireMissing.blinkCode))
        case .tonight(.habit):
            return PanelDisplay(green: .solid(after: 0, forMs: Indication.channelShowMs))
        case .tonight(.without):
            return PanelDisplay(yellow: .solid(after: 0, forMs: Indication.channelShowMs))
        }
    }

    /// The lamps for a readout light; `forMs` nil keeps it lit until the display changes.
    private static func lampsShowing(_ light: ReadoutLight, delayMs: Int, forMs: Int?) -> PanelDisplay {
        func lit() -> LightPattern {
            guard let forMs else { return .solid }
            return .solid(after: delayMs, forMs: forMs)
        }
        switch light {
        case .green: return PanelDisplay(green: lit())
        case .yellow: return PanelDisplay(yellow: lit())
        case .red: return PanelDisplay(red: lit())
        case .building:
            // Blue blinks while the baselines build; for a channel, after its number.
            guard forMs != nil else { return PanelDisplay(blue: .slowBlink) }
            let n = delayMs / (LightPattern.countOnMs + LightPattern.countOffMs)
            return PanelDisplay(blue: .countThenSlowBlink(n, forMs: channelShowMs))
        case .missing: return .dark
        }
    }

    /// What the state means, for the light table.
    public var meaning: String { meaning(timings: .standard) }

    /// What the state means on a box running on `timings`, for the light table.
    public func meaning(timings: SessionTimings) -> String {
        let confirm = SessionTimings.spoken(timings.confirmMs)
        return switch self {
        case .dark: "idle; or the readout is over"
        case .reminder: "morning reminder: today's check-in and measurement are still to do"
        case .entryItem(let n): "questionnaire: key item \(n) (\(SubjectiveItem.allCases[n - 1].label)), 1–7"
        case .entryHabits: "questionnaire habit mode: digit keys toggle habit chips; `0` or `*` returns"
        case .entryReady: "questionnaire: all five scores in; `#` saves"
        case .confirmRemeasure: "today is measured: GO within \(confirm) overwrites it"
        case .connecting: "connecting to the strap"
        case .measuring: "measuring, strap live with RR; lie still"
        case .measuringWithoutRR: "measuring heart rate only: RR not available (degraded; rMSSD will be empty)"
        case .confirmSkip: "skip the orthostatic part today? GO within \(confirm) confirms"
        case .reconnecting: "strap lost: paused, reconnecting"
        case .offerResume: "strap back: GO resumes, hold GO \(SessionTimings.spoken(timings.longPressMs)) restarts, `*` cancels"
        case .offerRetry(let f): "\(f.code): GO within \(SessionTimings.spoken(timings.retryOfferMs)) retries, `*` gives up"
        case .readout(let l): "readout: today's composite is \(l.rawValue)"
        case .channel(let n, let l):
            "readout, key \(n): the \(PanelReadout.channelNames[n - 1]) channel is \(l.rawValue)"
        case .notLikeYou:
            "after the readout, \(SessionTimings.spoken(Indication.notLikeYouShowMs)): several mornings running unlike "
                + "your normal (lying HR up, rMSSD down); `recoverydeck status` says more; not a diagnosis"
        case .fault(let f): f.sentence(timings: timings)
        case .refused: "GO refused: today's questionnaire first"
        case .tonight(.habit):
            "key 9 from 12:00: tonight is a night of the experiment's habit (do it); low beep: no experiment tonight"
        case .tonight(.without): "key 9 from 12:00: tonight the experiment's habit is left out"
        }
    }

    /// The state's name in the table.
    public var name: String {
        switch self {
        case .dark: "idle"
        case .reminder: "reminder"
        case .entryItem(let n): "questionnaire item \(n)"
        case .entryHabits: "questionnaire habit mode"
        case .entryReady: "questionnaire ready"
        case .confirmRemeasure: "confirm remeasure"
        case .connecting: "connecting"
        case .measuring: "measuring (settle, rMSSD, lying, stand cue, standing, saving)"
        case .measuringWithoutRR: "measuring, HR only"
        case .confirmSkip: "confirm skip orthostatic"
        case .reconnecting: "paused, reconnecting"
        case .offerResume: "resume or restart?"
        case .offerRetry(let f): "retry? (\(f.code))"
        case .readout(let l): "readout \(l.rawValue)"
        case .channel(let n, let l): "channel \(n) \(l.rawValue)"
        case .notLikeYou: "not like you"
        case .fault(let f): "fault \(f.code)"
        case .refused: "gate refused"
        case .tonight(.habit): "experiment tonight: do it"
        case .tonight(.without): "experiment tonight: leave it out"
        }
    }

    /// The rows of the light table: every state, and every fault.
    public static var catalogue: [Indication] {
        var rows: [Indication] = [.dark, .reminder]
        rows += (1...5).map { .entryItem($0) }
        rows += [
            .entryHabits, .entryReady, .confirmRemeasure, .connecting, .measuring, .measuringWithoutRR,
            .confirmSkip, .reconnecting, .offerResume,
        ]
        rows += [MorningFault.tooFewBeats, .tooManyArtifacts].map { .offerRetry($0) }
        rows += ReadoutLight.allCases.map { .readout($0) }
        rows += [.channel(1, .green), .channel(3, .red), .channel(5, .building), .channel(4, .missing)]
        rows.append(.notLikeYou)
        rows.append(.refused)
        rows += TonightArm.allCases.map { .tonight($0) }
        rows += MorningFault.allCases.filter(\.endsSession).map { .fault($0) }
        // Not a session's end: a refusal before anything starts (ClockGuard).
        rows.append(.fault(.clockUnsynchronised))
        rows.append(.fault(.restoring))
        return rows
    }
}

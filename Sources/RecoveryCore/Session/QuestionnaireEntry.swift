/// The questionnaire keyed on the panel's keypad (DESIGN §1 step 2; spec §9.1 Blocks A–C), as a pure
/// state machine: keys and a hand-moved clock in, sounds and the finished questionnaire out.
///
/// The rules, in the words of the faceplate:
/// - Any key starts the check-in; that first key only wakes the box. Before item N the blue light
///   blinks N times: 1 fatigue, 2 mood, 3 soreness, 4 life stress, 5 sleep quality (1–7, higher =
///   better).
/// - Each accepted digit 1–7 gives a short beep and moves to the next item.
/// - `*` goes back one item (its score can then be keyed again).
/// - `#` after item 5 saves the five scores and any habits.
/// - `0` switches habit mode on and off (the blue light stays on while it is on). In habit mode digit
///   key N toggles the Nth habit of the configured list (the `habits` setting, in order; up to nine):
///   a short beep when it switches on, two when it switches off. `*` also leaves habit mode; `#` still
///   saves once the five scores are in.
/// - Any other key gives a low beep and changes nothing (8 and 9 outside habit mode, `*` at item 1,
///   `#` before the five scores, a digit after them, a habit key beyond the list).
/// - `SessionTimings.questionnaireIdleMs` (60 s) without a key abandons the entry: nothing is saved, nothing half-saved.
public struct QuestionnaireEntry: Hashable, Sendable {
    /// Digit keys 1–9 address habits in habit mode; `0` is the mode key.
    public static let maximumHabitKeys = 9

    public enum Event: Hashable, Sendable {
        case key(KeypadKey)
        /// The clock moved (a deadline passed); `at` carries the time.
        case tick
    }

    public enum Action: Hashable, Sendable {
        case sound(Sound)
        /// The five scores and habits, ready for the store; the entry is finished.
        case submit(Questionnaire)
        /// Nothing is saved; the entry is finished.
        case abandon
    }

    public enum Status: Hashable, Sendable {
        case keying
        case submitted
        case abandoned
    }

    public let date: LocalDate
    /// The habit chips in key order: key N is `habits[N - 1]`.
    public let habits: [String]
    /// The scores keyed so far, in `SubjectiveItem.allCases` order.
    public private(set) var scores: [Int?] = Array(repeating: nil, count: 5)
    /// The item being keyed, 0-based; 5 once all five are in.
    public private(set) var itemIndex = 0
    public private(set) var habitMode = false
    public private(set) var chosenHabits: Set<String> = []
    public private(set) var lastKeyMs: Int64
    /// No key for this long abandons the entry (`SessionTimings.questionnaireIdleMs`).
    public let idleTimeoutMs: Int64
    public private(set) var status = Status.keying

    /// Starts an entry for `date`, woken by a key at `nowMs` (that key is consumed).
    public init(
        date: LocalDate, habits: [String], startedAtMs nowMs: Int64,
        idleTimeoutMs: Int64 = SessionTimings.standard.questionnaireIdleMs
    ) {
        self.date = date
        self.idleTimeoutMs = idleTimeoutMs
        self.habits = Array(habits.prefix(QuestionnaireEntry.maximumHabitKeys))
        self.lastKeyMs = nowMs
    }

    public var isFinished: Bool { status != .keying }

    /// When the entry will be abandoned if no key comes.
    public var nextDeadlineMs: Int64? { isFinished ? nil : lastKeyMs + idleTimeoutMs }

    /// What the panel shows now.
    public var indication: Indication {
        if isFinished { return .dark }
        if habitMode { return .entryHabits }
        return itemIndex < 5 ? .entryItem(itemIndex + 1) : .entryReady
    }

    public mutating func handle(_ event: Event, atMs nowMs: Int64) -> [Action] {
        guard !isFinished else { return [] }
        switch event {
        case .tick:
            guard nowMs >= lastKeyMs + idleTimeoutMs else { return [] }
            status = .abandoned
            return [.sound(.questionnaireAbandoned), .abandon]
        case .key(let key):
            // A key after the idle time arrived late: the entry was already over.
            if nowMs >= lastKeyMs + idleTimeoutMs {
                status = .abandoned
                return [.sound(.questionnaireAbandoned), .abandon]
            }
            lastKeyMs = nowMs
            return habitMode ? habitKey(key) : scoreKey(key)
        }
    }

    private mutating func scoreKey(_ key: KeypadKey) -> [Action] {
        switch key {
        case .digit(0):
            habitMode = true
            return []
        case .digit(let d) where Score.range.contains(d) && itemIndex < 5:
            scores[itemIndex] = d
            itemIndex += 1
            return [.sound(.digitAccepted)]
        case .star where itemIndex > 0:
            itemIndex -= 1
            return []
        case .hash where itemIndex == 5:
            return submit()
        default:
            return [.sound(.wrongKey)]
        }
    }

    private mutating func habitKey(_ key: KeypadKey) -> [Action] {
        switch key {
        case .digit(0), .star:
            habitMode = false
            return []
        case .digit(let d) where d >= 1 && d <= habits.count:
            let habit = habits[d - 1]
            if chosenHabits.remove(habit) != nil { return [.sound(.habitOff)] }
            chosenHabits.insert(habit)
            return [.sound(.habitOn)]
        case .hash where itemIndex == 5:
            return submit()
        default:
            return [.sound(.wrongKey)]
        }
    }

    private mutating func submit() -> [Action] {
        guard let scores = SubjectiveScores(self.scores.compactMap { $0 }) else { return [.sound(.wrongKey)] }
        status = .submitted
        return [.submit(Questionnaire(date: date, scores: scores, habits: Array(chosenHabits)))]
    }
}

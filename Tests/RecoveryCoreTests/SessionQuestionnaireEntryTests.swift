import Testing

@testable import RecoveryCore

/// The keypad questionnaire (DESIGN §1 step 2; RecoveryDeck spec §9.1): table tests with a hand-moved clock.
struct SessionQuestionnaireEntryTests {
    static let day = LocalDate(year: 2026, month: 3, day: 10)!
    static let habits = ["alcohol", "late-caffeine", "hard-training", "late-night", "illness"]

    /// Keys typed one per second from t = 1 s (the entry was woken at t = 0); returns every action.
    static func type(_ keys: String, into entry: inout QuestionnaireEntry, startMs: Int64 = 1000) -> [QuestionnaireEntry
        .Action]
    {
        var actions: [QuestionnaireEntry.Action] = []
        var t = startMs
        for ch in keys where ch != " " {
            actions += entry.handle(.key(KeypadKey(label: String(ch))!), atMs: t)
            t += 1000
        }
        return actions
    }

    static func fresh() -> QuestionnaireEntry {
        QuestionnaireEntry(date: day, habits: habits, startedAtMs: 0)
    }

    @Test("Five digits then # submit the five scores in the fixed order (DESIGN §1 step 2; spec review §6 Blocks A+B)")
    func fiveDigitsAndHashSubmit() throws {
        var entry = Self.fresh()
        #expect(entry.indication == .entryItem(1))
        let actions = Self.type("5 4 3 6 2 #", into: &entry)
        let submitted = actions.compactMap { if case .submit(let q) = $0 { q } else { nil } }
        let q = try #require(submitted.first)
        #expect(submitted.count == 1)
        #expect(q.date == Self.day)
        #expect(SubjectiveItem.allCases.map { q.scores[$0].value } == [5, 4, 3, 6, 2])
        #expect(q.habits.isEmpty)
        #expect(actions.filter { $0 == .sound(.digitAccepted) }.count == 5)
        #expect(entry.status == .submitted && entry.nextDeadlineMs == nil)
    }

    @Test("The blue light blinks N times before item N, and waits for # after item 5 (DESIGN §1 step 2)")
    func cueBeforeEachItem() {
        var entry = Self.fresh()
        var cues: [Indication] = [entry.indication]
        for (i, key) in ["1", "2", "3", "4", "5"].enumerated() {
            _ = entry.handle(.key(KeypadKey(label: key)!), atMs: Int64(i + 1) * 1000)
            cues.append(entry.indication)
        }
        #expect(cues == [.entryItem(1), .entryItem(2), .entryItem(3), .entryItem(4), .entryItem(5), .entryReady])
        for n in 1...5 { #expect(Indication.entryItem(n).display.blue == .count(n)) }
    }

    @Test("* goes back one item and the re-keyed score replaces the old one (DESIGN §1 step 2)")
    func starGoesBack() throws {
        var entry = Self.fresh()
        let actions = Self.type("7 7 * 1 2 3 4 #", into: &entry)
        let q = try #require(actions.compactMap { if case .submit(let q) = $0 { q } else { nil } }.first)
        #expect(SubjectiveItem.allCases.map { q.scores[$0].value } == [7, 1, 2, 3, 4])
    }

    @Test(
        "A wrong key gives a low beep and changes nothing (DESIGN §1 step 2)",
        arguments: [
            ("", "*"),  // nothing to go back to at item 1
            ("", "8"), ("", "9"),  // unused digits
            ("", "#"), ("1 2 3 4", "#"),  // # before item 5
            ("1 2 3 4 5", "6"),  // a digit after the five scores
            ("0", "6"), ("0", "9"),  // habit keys past the five configured habits
            ("0", "#"),  // # in habit mode before the scores are in
        ])
    func wrongKeyChangesNothing(prefix: String, wrong: String) {
        var entry = Self.fresh()
        _ = Self.type(prefix, into: &entry)
        let before = entry
        let actions = entry.handle(.key(KeypadKey(label: wrong)!), atMs: 30_000)
        #expect(actions == [.sound(.wrongKey)])
        #expect(entry.scores == before.scores && entry.itemIndex == before.itemIndex)
        #expect(entry.habitMode == before.habitMode && entry.chosenHabits == before.chosenHabits)
        #expect(entry.status == .keying && entry.indication == before.indication)
    }

    @Test(
        "0 toggles habit mode; key N toggles the Nth configured habit with one beep on, two off (spec review §6 Block C)"
    )
    func habitKeysToggleConfiguredHabits() throws {
        var entry = Self.fresh()
        var actions = Self.type("4 0", into: &entry)
        #expect(entry.habitMode && entry.indication == .entryHabits)
        actions = Self.type("1 3 3 5", into: &entry, startMs: 5000)
        #expect(actions == [.sound(.habitOn), .sound(.habitOn), .sound(.habitOff), .sound(.habitOn)])
        #expect(entry.chosenHabits == ["alcohol", "illness"])
        _ = Self.type("0", into: &entry, startMs: 10_000)
        #expect(!entry.habitMode && entry.indication == .entryItem(2))  // back to item 2, cue again
        actions = Self.type("4 4 4 4 #", into: &entry, startMs: 11_000)
        let q = try #require(actions.compactMap { if case .submit(let q) = $0 { q } else { nil } }.first)
        #expect(q.habits == ["alcohol", "illness"])
    }

    @Test("# in habit mode saves once the five scores are in; * leaves habit mode")
    func habitModeSubmitAndStar() throws {
        var entry = Self.fresh()
        _ = Self.type("1 2 3 4 5 0 2 *", into: &entry)
        #expect(!entry.habitMode && entry.indication == .entryReady)
        _ = Self.type("0", into: &entry, startMs: 20_000)
        let actions = Self.type("#", into: &entry, startMs: 21_000)
        let q = try #require(actions.compactMap { if case .submit(let q) = $0 { q } else { nil } }.first)
        #expect(q.habits == ["late-caffeine"])
    }

    @Test("60 s without a key abandons the entry and submits nothing; 59.999 s does not (DESIGN §1 step 2)")
    func idleAbandons() {
        var entry = Self.fresh()
        _ = Self.type("6 6 6", into: &entry)  // last key at 3 s
        #expect(entry.nextDeadlineMs == 63_000)
        #expect(entry.handle(.tick, atMs: 62_999).isEmpty)
        #expect(entry.status == .keying)
        let actions = entry.handle(.tick, atMs: 63_000)
        #expect(actions == [.sound(.questionnaireAbandoned), .abandon])
        #expect(entry.status == .abandoned && entry.indication == .dark)
        // Keys after that change nothing.
        #expect(entry.handle(.key(.hash), atMs: 63_001).isEmpty)
    }

    @Test("A key arriving after the idle time finds the entry abandoned, not resumed")
    func lateKeyAbandons() {
        var entry = Self.fresh()
        let actions = entry.handle(.key(.digit(3)), atMs: 60_000)
        #expect(actions == [.sound(.questionnaireAbandoned), .abandon])
        #expect(entry.scores == [nil, nil, nil, nil, nil])
    }

    @Test("Habit keys reach at most nine habits: key N is the Nth of the configured list")
    func atMostNineHabitKeys() {
        let many = (1...12).map { "h\($0)" }
        var entry = QuestionnaireEntry(date: Self.day, habits: many, startedAtMs: 0)
        #expect(entry.habits.count == 9)
        _ = Self.type("0 9", into: &entry)
        #expect(entry.chosenHabits == ["h9"])
    }
}

import Testing

@testable import RecoveryCore

/// The whole box as one machine: routing of presses between questionnaire and session, what the lamps
/// show, the reminder, and the day changing (DESIGN §1).
struct SessionRoutineTests {
    static let today = LocalDate(year: 2026, month: 3, day: 10)!

    struct Box {
        var routine: MorningRoutine
        var nowMs: Int64 = 0
        var minute = MinuteOfDay(hhmm: "06:00")!
        var date = SessionRoutineTests.today
        var log: [MorningRoutine.Action] = []

        init(
            day: DayContext = DayContext(today: SessionRoutineTests.today), firedOn: LocalDate? = nil,
            buzzer: Bool = false
        ) {
            routine = MorningRoutine(
                configuration: .init(reminder: .init(buzzer: buzzer)), day: day, reminderFiredOn: firedOn)
        }

        var now: MorningRoutine.Now {
            MorningRoutine.Now(
                monotonicMs: nowMs, epochSeconds: 1_773_100_800 + nowMs / 1000, localDate: date, localMinute: minute)
        }

        @discardableResult
        mutating func send(_ event: MorningRoutine.Event) -> [MorningRoutine.Action] {
            let actions = routine.handle(event, at: now)
            log += actions
            // The daemon's part: the store answers at once.
            for action in actions {
                if case .saveQuestionnaire(let q) = action { send(.questionnaireSaved(q)) }
            }
            return actions
        }

        mutating func keys(_ text: String) {
            for ch in text where ch != " " {
                nowMs += 700
                send(.session(.key(KeypadKey(label: String(ch))!)))
            }
        }
    }

    @Test("Keyed questionnaire opens the gate: GO then starts a session (spec §6.3; DESIGN §1 steps 2–3)")
    func questionnaireThenGo() {
        var box = Box()
        box.send(.session(.go(.short)))
        #expect(box.routine.indication == .refused)
        box.nowMs += 2000
        box.send(.session(.tick))
        box.keys("1")  // wakes the entry
        #expect(box.routine.indication == .entryItem(1))
        box.keys("5 5 4 6 3")
        #expect(box.routine.indication == .entryReady)
        box.keys("#")
        #expect(box.log.contains(.sound(.questionnaireSaved)))
        #expect(box.routine.day.questionnaire != nil)
        #expect(box.routine.indication == .dark)
        let actions = box.send(.session(.go(.short)))
        #expect(actions.contains(.connectStrap))
        #expect(box.routine.indication == .connecting)
    }

    @Test("GO during the entry is refused and the entry keeps its place; keys during a session do not reach it")
    func routingBetweenEntryAndSession() {
        var box = Box()
        box.keys("1 5 5")
        box.send(.session(.go(.short)))
        #expect(box.routine.indication == .refused)
        box.nowMs += 1300
        box.send(.session(.tick))
        #expect(box.routine.indication == .entryItem(3))
        box.keys("5 5 5 #")
        box.send(.session(.go(.short)))
        box.keys("7 7")
        #expect(box.routine.entry == nil)
        #expect(box.log.suffix(2) == [.sound(.wrongKey), .sound(.wrongKey)])
    }

    @Test(
        "The reminder blinks from 06:30 until the morning is saved, and yields to the entry and the session (spec §10)")
    func reminderUnderneath() {
        var box = Box(day: DayContext(today: Self.today, questionnaire: SessionHarness.questionnaire))
        box.send(.session(.tick))
        #expect(box.routine.indication == .dark)
        box.minute = MinuteOfDay(hhmm: "06:30")!
        box.send(.session(.tick))
        #expect(box.routine.indication == .reminder)
        #expect(box.log.contains(.rememberReminder(Self.today)))
        box.send(.session(.go(.short)))
        #expect(box.routine.indication == .connecting)
        box.send(.session(.cancel))
        #expect(box.routine.indication == .reminder)
        // Saved morning: the blink stops for the day.
        box.send(
            .session(.day(DayContext(today: Self.today, questionnaire: SessionHarness.questionnaire, measured: true))))
        #expect(box.routine.indication == .dark)
        #expect(box.log.filter { $0 == .rememberReminder(Self.today) }.count == 1)
    }

    @Test("A restarted daemon that already reminded today blinks silently and records nothing (FATNAG: once a day)")
    func reminderAfterRestart() {
        var box = Box(firedOn: Self.today, buzzer: true)
        box.minute = MinuteOfDay(hhmm: "07:10")!
        let actions = box.send(.session(.tick))
        #expect(actions.isEmpty)
        #expect(box.routine.indication == .reminder)
    }

    @Test("A new local day forgets yesterday's facts and asks the store for today's (spec §6.3: the gate resets)")
    func dayRollsOver() {
        var box = Box(day: DayContext(today: Self.today, questionnaire: SessionHarness.questionnaire, measured: true))
        box.date = Self.today.adding(days: 1)
        let actions = box.send(.session(.go(.short)))
        #expect(actions.first == .loadDay(Self.today.adding(days: 1)))
        #expect(actions.contains(.sound(.refused)))
        #expect(box.routine.day.today == Self.today.adding(days: 1) && box.routine.day.questionnaire == nil)
    }

    @Test("60 s idle abandons the keyed entry: nothing is saved and the next key starts afresh (DESIGN §1 step 2)")
    func entryAbandonsThroughRoutine() {
        var box = Box()
        box.keys("1 4 4")
        box.nowMs += 60_000
        box.send(.session(.tick))
        #expect(box.routine.entry == nil)
        #expect(!box.log.contains { if case .saveQuestionnaire = $0 { true } else { false } })
        #expect(box.log.contains(.record(AnalyticsRecord("questionnaire_abandoned"))))
        box.keys("2")
        #expect(box.routine.indication == .entryItem(1))
    }

    @Test("The clock's refusal blinks its own code (10; 9 stays retired) and files nothing, at GO and at #")
    func clockRefusalHasItsOwnCode() {
        var box = Box(day: DayContext(today: SessionRoutineTests.today, questionnaire: nil))
        let atGo = box.routine.handle(.clockRefused, at: box.now)
        #expect(box.routine.indication == .fault(.clockUnsynchronised))
        #expect(box.routine.indication.display.red == .code(10))
        #expect(!MorningFault.allCases.contains { $0.blinkCode == 9 })
        #expect(atGo.contains(.say(ClockGuard.sentence)))
        #expect(atGo.contains(.record(AnalyticsRecord("clock_refused"))))
        #expect(!atGo.contains { if case .saveMorning = $0 { true } else { false } })
        #expect(!atGo.contains(.connectStrap))
        // A key clears the code and starts the questionnaire; `#` asks the store, the guard refuses.
        box.keys("1 4 4 4 4 4")
        let actions = box.routine.handle(.session(.key(.hash)), at: box.now)
        guard case .saveQuestionnaire = actions.last else {
            Issue.record("no save")
            return
        }
        _ = box.routine.handle(.clockRefused, at: box.now)
        #expect(box.routine.indication == .fault(.clockUnsynchronised))
        #expect(box.routine.entry == nil)
        #expect(box.routine.day.questionnaire == nil)
        // The code shows for the fault time, then the lamps go dark.
        box.nowMs += SessionTimings.standard.faultShowMs + 1
        box.send(.session(.tick))
        #expect(box.routine.indication == .dark)
    }

    @Test("The light table lists the clock's code 10 with its sentence, and no retired code 9")
    func lightTableHasClockCode() {
        let table = LightTable.markdown()
        #expect(table.contains("| 10 | `clock_unsynchronised` |"))
        #expect(!table.contains("| 9 |") && !table.contains("save_failed"))
        #expect(table.contains("| fault clock_unsynchronised | 10 blinks, repeating |"))
        #expect(table.contains(ClockGuard.sentence))
    }

    @Test(
        "Settings changed over SSH: off darkens a showing reminder, a new time shows it silently, new habits reach the next entry"
    )
    func settingsChangeWhileRunning() {
        var box = Box(buzzer: true)
        box.minute = MinuteOfDay(hhmm: "06:45")!
        box.send(.session(.tick))
        #expect(box.routine.indication == .reminder)
        let starts = box.log.filter { $0 == .sound(.reminder) }.count
        #expect(starts == 1)
        var off = box.routine.configuration.reminder
        off.enabled = false
        box.send(.settings(habits: box.routine.configuration.habits, reminder: off))
        #expect(box.routine.indication == .dark)
        #expect(box.routine.nextReminderCheck(at: box.now) == nil, "an off reminder wakes nobody")
        // Back on at 06:40: the blink returns, but today's start already happened, so no second beep.
        var early = off
        early.enabled = true
        early.start = MinuteOfDay(hhmm: "06:40")!
        box.send(.settings(habits: ["sauna", "alcohol"], reminder: early))
        #expect(box.routine.indication == .reminder)
        #expect(box.log.filter { $0 == .sound(.reminder) }.count == 1)
        // A key starts an entry with the new habit list.
        box.keys("1")
        #expect(box.routine.entry?.habits == ["sauna", "alcohol"])
        // The list changing mid-entry leaves the entry's own chips alone.
        box.send(.settings(habits: ["late-night"], reminder: early))
        #expect(box.routine.entry?.habits == ["sauna", "alcohol"])
    }
}

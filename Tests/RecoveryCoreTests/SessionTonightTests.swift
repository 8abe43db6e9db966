import Testing

@testable import RecoveryCore

/// Key 9 in the evening: tonight's arm of a running experiment at the bedside (green 3 s = do it, yellow
/// 3 s = leave it out, low beep = none), from 12:00 only, and never in the way of the questionnaire.
struct SessionTonightTests {
    typealias Box = SessionRoutineTests.Box
    static let today = SessionRoutineTests.today

    static func box(_ arm: TonightArm?, at hhmm: String) -> Box {
        var box = Box(day: DayContext(today: today, tonight: arm))
        box.minute = MinuteOfDay(hhmm: hhmm)!
        return box
    }

    @Test("Key 9 at 20:00 shows green for 3 s on a habit night, yellow on a night without; then dark")
    func eveningShowsTheArm() {
        for (arm, lamp) in [(TonightArm.habit, "green"), (.without, "yellow")] {
            var box = Self.box(arm, at: "20:00")
            let actions = box.send(.session(.key(.digit(9))))
            #expect(box.routine.indication == .tonight(arm), "\(lamp)")
            #expect(!actions.contains(.sound(.wrongKey)))
            let display = box.routine.indication.display
            #expect((lamp == "green" ? display.green : display.yellow) != .off)
            #expect(box.routine.entry == nil, "the questionnaire is not woken")
            // The lamp goes dark at its 3 s deadline (hand-moved clock; tolerance 0: the deadline is exact).
            #expect(box.routine.nextDeadlineMs == box.nowMs + 3000)
            box.nowMs += 2999
            box.send(.session(.tick))
            #expect(box.routine.indication == .tonight(arm))
            box.nowMs += 1
            box.send(.session(.tick))
            #expect(box.routine.indication == .dark)
            #expect(box.routine.nextDeadlineMs == nil)
        }
    }

    @Test("Key 9 in the evening with no experiment tonight: a low beep and nothing else")
    func noExperimentBeepsLow() {
        var box = Self.box(nil, at: "21:30")
        let actions = box.send(.session(.key(.digit(9))))
        #expect(actions.contains(.sound(.wrongKey)))
        #expect(box.routine.indication == .dark)
        #expect(box.routine.entry == nil)
    }

    @Test("Before 12:00 key 9 wakes the questionnaire as every key does; from 12:00 it shows the arm")
    func morningKeepsTheQuestionnaire() {
        var morning = Self.box(.habit, at: "11:59")
        morning.send(.session(.key(.digit(9))))
        #expect(morning.routine.entry != nil)
        #expect(morning.routine.indication == .entryItem(1))
        var noon = Self.box(.habit, at: "12:00")
        noon.send(.session(.key(.digit(9))))
        #expect(noon.routine.entry == nil)
        #expect(noon.routine.indication == .tonight(.habit))
    }

    @Test("During a questionnaire key 9 is the questionnaire's (a low beep outside habit mode), never the arm")
    func questionnaireOwnsNine() {
        var box = Self.box(.without, at: "19:00")
        box.keys("1")  // wakes the entry
        let actions = box.send(.session(.key(.digit(9))))
        #expect(box.routine.indication == .entryItem(1))
        #expect(actions.contains(.sound(.wrongKey)))
    }

    @Test("Another key while the arm is lit puts it out and wakes the questionnaire")
    func anotherKeyEndsIt() {
        var box = Self.box(.habit, at: "18:00")
        box.send(.session(.key(.digit(9))))
        box.nowMs += 500
        box.send(.session(.key(.digit(1))))
        #expect(box.routine.indication == .entryItem(1))
    }

    @Test("The light table has a row for each arm, and says when key 9 answers")
    func lightTable() {
        let table = LightTable.markdown()
        #expect(table.contains("| experiment tonight: do it |"))
        #expect(table.contains("| experiment tonight: leave it out |"))
        #expect(table.contains("from 12:00 to midnight, key 9"))
    }
}

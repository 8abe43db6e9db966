import Testing

@testable import RecoveryCore

/// The morning reminder (RecoveryDeck spec §10; FATNAG notification rules: once a day, window closes,
/// skip when done, idempotent).
struct SessionReminderTests {
    static let monday = LocalDate(year: 2026, month: 3, day: 9)!
    static func at(_ text: String) -> MinuteOfDay { MinuteOfDay(hhmm: text)! }

    @Test("The blink starts at the set time and not a minute before (spec §10; default 06:30)")
    func startsAtSetTime() {
        var reminder = MorningReminder(schedule: .init(), firedOn: nil)
        #expect(reminder.evaluate(date: Self.monday, minute: Self.at("06:29"), morningDone: false).isEmpty)
        #expect(!reminder.isShowing)
        let actions = reminder.evaluate(date: Self.monday, minute: Self.at("06:30"), morningDone: false)
        #expect(reminder.isShowing)
        #expect(actions == [.rememberStarted(Self.monday), .recordShown(Self.monday)])  // buzzer off by default
    }

    @Test("Evaluating again the same day repeats nothing (FATNAG: idempotent, max once per local day)")
    func onceADay() {
        var reminder = MorningReminder(schedule: .init(buzzer: true), firedOn: nil)
        let first = reminder.evaluate(date: Self.monday, minute: Self.at("06:30"), morningDone: false)
        #expect(first.contains(.sound(.reminder)))
        for minute in ["06:31", "07:00", "09:59"] {
            #expect(reminder.evaluate(date: Self.monday, minute: Self.at(minute), morningDone: false).isEmpty)
            #expect(reminder.isShowing)
        }
    }

    @Test("A restart inside the window shows the blink again, silently, and records nothing (persisted firedOn)")
    func restartDoesNotRepeat() {
        var restarted = MorningReminder(schedule: .init(buzzer: true), firedOn: Self.monday)
        let actions = restarted.evaluate(date: Self.monday, minute: Self.at("07:15"), morningDone: false)
        #expect(actions.isEmpty)
        #expect(restarted.isShowing)
        // The next day it starts again.
        let tuesday = Self.monday.adding(days: 1)
        #expect(
            restarted.evaluate(date: tuesday, minute: Self.at("06:30"), morningDone: false).contains(.sound(.reminder)))
    }

    @Test("The window closes at its end: nothing shows or starts at or after 10:00 (FATNAG: window closes)")
    func windowCloses() {
        var reminder = MorningReminder(schedule: .init(), firedOn: nil)
        _ = reminder.evaluate(date: Self.monday, minute: Self.at("09:00"), morningDone: false)
        #expect(reminder.isShowing)
        #expect(reminder.evaluate(date: Self.monday, minute: Self.at("10:00"), morningDone: false).isEmpty)
        #expect(!reminder.isShowing)
        var late = MorningReminder(schedule: .init(), firedOn: nil)
        #expect(late.evaluate(date: Self.monday, minute: Self.at("10:00"), morningDone: false).isEmpty)
        #expect(!late.isShowing && late.firedOn == nil)
        // 09:59 is still inside.
        #expect(!late.evaluate(date: Self.monday, minute: Self.at("09:59"), morningDone: false).isEmpty)
    }

    @Test("A morning already done skips the reminder; finishing it stops the blink (FATNAG: skip when done)")
    func skipWhenDone() {
        var reminder = MorningReminder(schedule: .init(buzzer: true), firedOn: nil)
        #expect(reminder.evaluate(date: Self.monday, minute: Self.at("06:30"), morningDone: true).isEmpty)
        #expect(!reminder.isShowing && reminder.firedOn == nil)
        var showing = MorningReminder(schedule: .init(), firedOn: nil)
        _ = showing.evaluate(date: Self.monday, minute: Self.at("06:45"), morningDone: false)
        #expect(showing.isShowing)
        #expect(showing.evaluate(date: Self.monday, minute: Self.at("06:50"), morningDone: true).isEmpty)
        #expect(!showing.isShowing)
    }

    @Test("Disabled means never; the buzzer sounds only when enabled (spec §10; DESIGN §1 step 1)")
    func disabledAndBuzzer() {
        var off = MorningReminder(schedule: .init(enabled: false, buzzer: true), firedOn: nil)
        #expect(off.evaluate(date: Self.monday, minute: Self.at("07:00"), morningDone: false).isEmpty)
        #expect(!off.isShowing)
        #expect(off.nextCheck(date: Self.monday, minute: Self.at("07:00")) == nil)
        var quiet = MorningReminder(schedule: .init(buzzer: false), firedOn: nil)
        #expect(
            !quiet.evaluate(date: Self.monday, minute: Self.at("07:00"), morningDone: false).contains(.sound(.reminder))
        )
    }

    @Test("The next wake-up is the window's opening, its closing, or tomorrow's opening: nothing polls")
    func nextCheck() {
        let reminder = MorningReminder(schedule: .init(), firedOn: nil)
        #expect(reminder.nextCheck(date: Self.monday, minute: Self.at("03:00"))! == (Self.monday, Self.at("06:30")))
        #expect(reminder.nextCheck(date: Self.monday, minute: Self.at("06:30"))! == (Self.monday, Self.at("10:00")))
        #expect(
            reminder.nextCheck(date: Self.monday, minute: Self.at("10:00"))!
                == (Self.monday.adding(days: 1), Self.at("06:30")))
    }
}

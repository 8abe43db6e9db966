/// The morning reminder (RecoveryDeck spec §10, with the notification discipline of the FATNAG notes:
/// once a day, a window that closes, skipped when the morning is already done, idempotent): the blue
/// status light slow-blinks from the set time until today's measurement is stored or the window
/// closes; the buzzer sounds once, when it starts, and only if enabled.
///
/// "Once a day" survives a restart of the daemon: the day it last started is kept in the store
/// (`firedOn`), so a restart inside the window shows the blink again, silently, and never sounds or
/// records a second start. Evaluating any number of times changes nothing after the first.
/// Times are local wall-clock minutes (the person's 06:30 stays 06:30 across DST changes).
public struct MorningReminder: Hashable, Sendable {
    public struct Schedule: Hashable, Sendable {
        public var enabled: Bool
        /// When the blink starts (spec §10 daily trigger; default 06:30).
        public var start: MinuteOfDay
        /// When the window closes: nothing starts at or after it (default 10:00).
        public var end: MinuteOfDay
        /// Whether the start also beeps.
        public var buzzer: Bool

        public init(
            enabled: Bool = true, start: MinuteOfDay = MinuteOfDay(hour: 6, minute: 30)!,
            end: MinuteOfDay = MinuteOfDay(hour: 10, minute: 0)!, buzzer: Bool = false
        ) {
            self.enabled = enabled
            self.start = start
            self.end = end
            self.buzzer = buzzer
        }

        /// True when `minute` lies in `[start, end)`.
        public func contains(_ minute: MinuteOfDay) -> Bool { minute >= start && minute < end }
    }

    public enum Action: Hashable, Sendable {
        case sound(Sound)
        /// Keep `date` as the day the reminder started (store setting), so a restart does not repeat it.
        case rememberStarted(LocalDate)
        /// Record the local analytics event `reminder_shown` (spec §7.3).
        case recordShown(LocalDate)
    }

    public private(set) var schedule: Schedule
    /// The last day the reminder started, as kept in the store.
    public private(set) var firedOn: LocalDate?
    /// Whether the blue light should slow-blink now.
    public private(set) var isShowing = false

    public init(schedule: Schedule, firedOn: LocalDate?) {
        self.schedule = schedule
        self.firedOn = firedOn
    }

    /// Brings the reminder up to date at local time `date` + `minute`. `morningDone` is true once `date`
    /// has a stored measurement.
    public mutating func evaluate(date: LocalDate, minute: MinuteOfDay, morningDone: Bool) -> [Action] {
        guard schedule.enabled, schedule.contains(minute), !morningDone else {
            isShowing = false
            return []
        }
        isShowing = true
        if firedOn == date { return [] }
        firedOn = date
        var actions: [Action] = [.rememberStarted(date), .recordShown(date)]
        if schedule.buzzer { actions.append(.sound(.reminder)) }
        return actions
    }

    /// Takes a changed schedule (the time or `off` set over SSH). The day it last started is kept, so moving
    /// the time on a day it already started shows the blink again in the new window but never sounds twice.
    /// The next `evaluate` brings `isShowing` up to date.
    public mutating func reschedule(_ schedule: Schedule) {
        self.schedule = schedule
    }

    /// The next local time at which the reminder could change by the clock alone (the window opening
    /// or closing), so the daemon can sleep until then. Changes of `morningDone` come as new evaluations.
    public func nextCheck(date: LocalDate, minute: MinuteOfDay) -> (date: LocalDate, minute: MinuteOfDay)? {
        guard schedule.enabled else { return nil }
        if minute < schedule.start { return (date, schedule.start) }
        if minute < schedule.end { return (date, schedule.end) }
        return (date.adding(days: 1), schedule.start)
    }
}

/// The whole bedside box as one pure state machine: the morning session, the keypad questionnaire and
/// the reminder, with the panel's presses routed between them and one answer to "what do the lamps
/// show now" (DESIGN §1). The daemon feeds it events and the time, and performs its actions.
///
/// Routing: GO always goes to the session (whose gate refuses it before today's questionnaire). Keys
/// go to the session while it is measuring or showing the readout, else to the questionnaire entry
/// (the first key starts one). The lamps show the session when it is not idle, else the entry, else
/// the reminder's blink, else nothing.
///
/// From 12:00 to midnight, key 9 while nothing is in progress (no session, no questionnaire being keyed)
/// answers "what is tonight?" for a running experiment instead of waking the questionnaire: green for 3 s
/// means do the habit tonight, yellow for 3 s leave it out, a low beep no experiment tonight.
public struct MorningRoutine: Sendable {
    public struct Configuration: Hashable, Sendable {
        public var timings: SessionTimings
        /// The habit chips in key order (habit mode: key N toggles `habits[N - 1]`).
        public var habits: [String]
        public var reminder: MorningReminder.Schedule
        /// The artifact rule of the morning's rMSSD window.
        public var artifactRule: ArtifactRule = .default

        public init(
            timings: SessionTimings = .standard, habits: [String] = Questionnaire.starterHabits,
            reminder: MorningReminder.Schedule = MorningReminder.Schedule()
        ) {
            self.timings = timings
            self.habits = habits
            self.reminder = reminder
        }
    }

    /// "Now" for the routine: the monotonic clock for timers, the wall clock for dating, and the local
    /// calendar time (from the system time zone) for the reminder and the day.
    public struct Now: Hashable, Sendable {
        public var monotonicMs: Int64
        public var epochSeconds: Int64
        public var localDate: LocalDate
        public var localMinute: MinuteOfDay

        public init(monotonicMs: Int64, epochSeconds: Int64, localDate: LocalDate, localMinute: MinuteOfDay) {
            self.monotonicMs = monotonicMs
            self.epochSeconds = epochSeconds
            self.localDate = localDate
            self.localMinute = localMinute
        }

        var session: SessionTime { SessionTime(monotonicMs: monotonicMs, epochSeconds: epochSeconds) }
    }

    /// The session's own events (the panel, the control socket, the strap, the store, deadlines), in its
    /// vocabulary, and the few only the routine has: the questionnaire's save and the settings.
    public enum Event: Hashable, Sendable {
        /// Routed as the header says: GO to the session, a key to the session or the questionnaire, a tick
        /// to both; the rest to the session as is.
        case session(MorningSession.Event)
        case questionnaireSaved(Questionnaire)
        /// The clock guard refused to date a record (`ClockGuard`): a GO or `measure` starts nothing, a keypad
        /// questionnaire with the store is dropped unfiled; the lamps blink the clock's own code.
        case clockRefused
        /// GO while a restore holds the database's writes: nothing starts; the lamps blink `MorningFault.restoring`
        /// and nothing is recorded (the database is being rewritten).
        case writesPaused
        /// The habit list, the reminder or the artifact rule changed over SSH. A questionnaire being keyed keeps
        /// the habits it started with; the next one uses the new list; a capture under way keeps its rule.
        case settings(habits: [String], reminder: MorningReminder.Schedule, artifactRule: ArtifactRule = .default)
    }

    public enum Action: Hashable, Sendable {
        case connectStrap
        case disconnectStrap
        case sound(Sound)
        /// One transaction; replaces today's measurement when `overwrite`.
        case saveMorning(MorningMeasurement, overwrite: Bool)
        case saveQuestionnaire(Questionnaire)
        case record(AnalyticsRecord)
        /// Keep the day the reminder last started (a store setting), so a restart does not repeat it.
        case rememberReminder(LocalDate)
        /// The local day changed: read its facts from the store and send `.day`.
        case loadDay(LocalDate)
        case say(String)
        case declined(MorningSession.Decline)
    }

    public private(set) var configuration: Configuration
    public private(set) var session: MorningSession
    public private(set) var entry: QuestionnaireEntry?
    public private(set) var reminder: MorningReminder
    /// A submitted questionnaire is with the store.
    public private(set) var savingQuestionnaire = false
    /// Tonight's experiment arm, lit until `tonightUntilMs` (key 9 in the evening).
    public private(set) var tonightShown: TonightArm?
    var tonightUntilMs: Int64 = 0

    /// The key that asks for tonight's arm: 9 means nothing outside habit mode (DESIGN §2 keypad).
    public static let tonightKey = KeypadKey.digit(9)
    /// Key 9 shows tonight's arm from this local time to midnight. Before it the morning's check-in (and
    /// its reminder, 06:30–10:00 by default) owns the keys; the habits an experiment tests (late caffeine,
    /// alcohol, a late meal) begin in the afternoon, so the answer is there before the choice is made.
    /// After midnight the local day is tomorrow's morning already, and 9 wakes the questionnaire again.
    public static let tonightFrom = MinuteOfDay(hour: 12, minute: 0)!

    public init(configuration: Configuration, day: DayContext, reminderFiredOn: LocalDate?) {
        self.configuration = configuration
        self.session = MorningSession(day: day, timings: configuration.timings)
        self.session.artifactRule = configuration.artifactRule
        self.reminder = MorningReminder(schedule: configuration.reminder, firedOn: reminderFiredOn)
    }

    public var day: DayContext { session.day }

    /// What the lamps show now.
    public var indication: Indication {
        if session.phase != .idle { return session.indication }
        if let entry, !entry.isFinished { return entry.indication }
        if let tonightShown { return .tonight(tonightShown) }
        return reminder.isShowing ? .reminder : .dark
    }

    /// The earliest monotonic time at which `handle(.tick, …)` is due; nil when nothing is timed.
    public var nextDeadlineMs: Int64? {
        [session.nextDeadlineMs, entry?.nextDeadlineMs, tonightShown.map { _ in tonightUntilMs }].compactMap { $0 }
            .min()
    }

    /// The next local time at which the reminder may change by the clock alone.
    public func nextReminderCheck(at now: Now) -> (date: LocalDate, minute: MinuteOfDay)? {
        reminder.nextCheck(date: now.localDate, minute: now.localMinute)
    }

    public mutating func handle(_ event: Event, at now: Now) -> [Action] {
        var actions: [Action] = []
        if now.localDate != session.day.today {
            // A new local day: nothing is known for it until the store says so.
            actions += forward(.day(DayContext(today: now.localDate)), now)
            actions.append(.loadDay(now.localDate))
        }
        actions += dispatch(event, now)
        actions += reminderActions(now)
        return actions
    }

    mutating func dispatch(_ event: Event, _ now: Now) -> [Action] {
        let t = now.monotonicMs
        switch event {
        case .session(.key(let key)): return routeKey(key, now)
        case .session(.tick):
            var actions = forward(.tick, now)
            if tonightShown != nil, t >= tonightUntilMs { tonightShown = nil }
            if entry != nil, !savingQuestionnaire { actions += entryActions(.tick, now) }
            return actions
        case .session(let event): return forward(event, now)
        case .questionnaireSaved(let questionnaire):
            guard savingQuestionnaire else { return [] }
            savingQuestionnaire = false
            entry = nil
            var context = session.day
            if questionnaire.date == context.today { context.questionnaire = questionnaire }
            return forward(.day(context), now) + [
                .sound(.questionnaireSaved), .record(AnalyticsRecord("questionnaire_keyed")),
            ]
        case .clockRefused:
            let fault = MorningFault.clockUnsynchronised
            if savingQuestionnaire {
                savingQuestionnaire = false
                entry = nil
            }
            // Only where GO would start a session: a measuring session or a readout keeps its lamps.
            if session.phase == .idle || session.phase == .showingFault {
                session.enterFault(fault, at: t, showMs: configuration.timings.faultShowMs)
            }
            return [.sound(.fault), .say(fault.sentence), .record(AnalyticsRecord(fault.analyticsEvent))]
        case .writesPaused:
            let fault = MorningFault.restoring
            if session.phase == .idle || session.phase == .showingFault {
                session.enterFault(fault, at: t, showMs: configuration.timings.faultShowMs)
            }
            return [.sound(.fault), .say(fault.sentence)]
        case .settings(let habits, let schedule, let rule):
            configuration.habits = habits
            configuration.reminder = schedule
            configuration.artifactRule = rule
            session.artifactRule = rule
            reminder.reschedule(schedule)
            return []
        }
    }

    mutating func routeKey(_ key: KeypadKey, _ now: Now) -> [Action] {
        tonightShown = nil
        if session.wantsKeys { return forward(.key(key), now) }
        // A key clears a fault's code, then belongs to the questionnaire.
        let cleared = forward(.key(key), now)
        guard !savingQuestionnaire else { return cleared }
        guard entry != nil else {
            if key == MorningRoutine.tonightKey, now.localMinute >= MorningRoutine.tonightFrom {
                guard let arm = session.day.tonight else { return cleared + [.sound(.wrongKey)] }
                tonightShown = arm
                tonightUntilMs = now.monotonicMs + Int64(Indication.channelShowMs)
                return cleared
            }
            entry = QuestionnaireEntry(
                date: now.localDate, habits: configuration.habits, startedAtMs: now.monotonicMs,
                idleTimeoutMs: configuration.timings.questionnaireIdleMs)
            return cleared
        }
        return cleared + entryActions(.key(key), now)
    }

    mutating func entryActions(_ event: QuestionnaireEntry.Event, _ now: Now) -> [Action] {
        guard var current = entry else { return [] }
        let produced = current.handle(event, atMs: now.monotonicMs)
        entry = current
        var actions: [Action] = []
        for action in produced {
            switch action {
            case .sound(let sound): actions.append(.sound(sound))
            case .submit(let questionnaire):
                savingQuestionnaire = true
                actions.append(.saveQuestionnaire(questionnaire))
            case .abandon:
                entry = nil
                actions.append(.record(AnalyticsRecord("questionnaire_abandoned")))
            }
        }
        return actions
    }

    mutating func forward(_ event: MorningSession.Event, _ now: Now) -> [Action] {
        session.handle(event, at: now.session).map { action in
            switch action {
            case .connectStrap: .connectStrap
            case .disconnectStrap: .disconnectStrap
            case .sound(let sound): .sound(sound)
            case .save(let measurement, let overwrite): .saveMorning(measurement, overwrite: overwrite)
            case .record(let record): .record(record)
            case .say(let sentence): .say(sentence)
            case .declined(let decline): .declined(decline)
            }
        }
    }

    mutating func reminderActions(_ now: Now) -> [Action] {
        let done = session.day.today == now.localDate && session.day.measured
        return reminder.evaluate(date: now.localDate, minute: now.localMinute, morningDone: done).map { action in
            switch action {
            case .sound(let sound): .sound(sound)
            case .rememberStarted(let date): .rememberReminder(date)
            case .recordShown(let date): .record(AnalyticsRecord("reminder_shown", detail: date.iso))
            }
        }
    }
}

/// What the session needs to know about today before it starts: the local date and what is already
/// stored for it. The daemon reads it from the store and sends it again whenever it changes (a
/// questionnaire saved over SSH, a new local day).
public struct DayContext: Hashable, Sendable {
    public var today: LocalDate
    /// Today's questionnaire, when stored.
    public var questionnaire: Questionnaire?
    /// Whether today already has a stored measurement (remeasure asks first; spec §6.1).
    public var measured: Bool
    /// Tonight's arm (the night before tomorrow's morning) of a running experiment; nil when no
    /// experiment has tomorrow's morning in its schedule. Key 9 in the evening shows it.
    public var tonight: TonightArm?

    public init(
        today: LocalDate, questionnaire: Questionnaire? = nil, measured: Bool = false, tonight: TonightArm? = nil
    ) {
        self.today = today
        self.questionnaire = questionnaire
        self.measured = measured
        self.tonight = tonight
    }

    /// The gate (spec §6.3), through the core's pure function.
    public var canStartMeasurement: Bool {
        Gate.canStartMeasurement(today: today, questionnaire: DayRecord(date: today, questionnaire: questionnaire))
    }
}

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

/// What one night of a running experiment asks at the bedside: do the habit this evening, or leave it
/// out (raw values as the store keeps them).
public enum TonightArm: String, Hashable, Sendable, CaseIterable {
    case habit
    case without
}

/// "Now" for the session: the monotonic clock drives every timer; the wall clock only dates the morning.
public struct SessionTime: Hashable, Sendable {
    public var monotonicMs: Int64
    public var epochSeconds: Int64

    public init(monotonicMs: Int64, epochSeconds: Int64) {
        self.monotonicMs = monotonicMs
        self.epochSeconds = epochSeconds
    }
}

/// One local analytics event (spec §7.3), for the store's analytics table.
public struct AnalyticsRecord: Hashable, Sendable {
    public var name: String
    public var value: Double?
    public var detail: String?

    public init(_ name: String, value: Double? = nil, detail: String? = nil) {
        self.name = name
        self.value = value
        self.detail = detail
    }
}

import RecoveryCore

/// A T4 experiment as stored: its scheme, its seed and its schedule (DESIGN §6).
public struct StoredExperiment: Hashable, Sendable {
    public var id: Int64
    public var habit: String
    /// A `Channel` raw value.
    public var outcome: String
    /// The first morning of the schedule (the night before it is the first night).
    public var firstDay: LocalDate
    public var mornings: Int
    public var block: Int
    public var seed: UInt64
    public var startedAt: Int64
    /// Stopped early: the first morning no longer in the experiment.
    public var stoppedDay: LocalDate?
    /// When it was stopped (seconds since the Unix epoch); nil while not stopped.
    public var stoppedAt: Int64?
    /// "habit" or "without" per morning, in order.
    public var arms: [String]

    public init(
        id: Int64 = 0, habit: String, outcome: String, firstDay: LocalDate, mornings: Int, block: Int, seed: UInt64,
        startedAt: Int64, stoppedDay: LocalDate? = nil, stoppedAt: Int64? = nil, arms: [String]
    ) {
        self.id = id
        self.habit = habit
        self.outcome = outcome
        self.firstDay = firstDay
        self.mornings = mornings
        self.block = block
        self.seed = seed
        self.startedAt = startedAt
        self.stoppedDay = stoppedDay
        self.stoppedAt = stoppedAt
        self.arms = arms
    }

    /// The morning after the last one in the experiment (the planned end, or the stop).
    public var endDay: LocalDate { stoppedDay ?? firstDay.adding(days: mornings) }

    /// Mornings run: the schedule up to the end (planned or stopped).
    public var morningsRun: Int { min(mornings, max(0, endDay.dayNumber - firstDay.dayNumber)) }

    /// Still running on `today`: not stopped, and a morning of the schedule lies ahead or is today.
    public func isRunning(on today: LocalDate) -> Bool { stoppedDay == nil && today < endDay }

    /// The arm of the night before morning `date`, when that morning is in the schedule.
    public func arm(forMorning date: LocalDate) -> String? {
        let i = date.dayNumber - firstDay.dayNumber
        guard i >= 0, i < morningsRun, i < arms.count else { return nil }
        return arms[i]
    }
}

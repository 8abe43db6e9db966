/// A local day as the store and the baselines see it: the questionnaire and the measurement, each
/// possibly absent. Missing stays missing (spec §5.4; Health Engine invariant 4).
public struct DayRecord: Hashable, Sendable {
    public var date: LocalDate
    public var questionnaire: Questionnaire?
    public var measurement: MorningMeasurement?
    /// True when the day came from `recoverydeck import` rather than a box measurement.
    public var imported: Bool

    public init(
        date: LocalDate, questionnaire: Questionnaire? = nil, measurement: MorningMeasurement? = nil,
        imported: Bool = false
    ) {
        self.date = date
        self.questionnaire = questionnaire
        self.measurement = measurement
        self.imported = imported
    }
}

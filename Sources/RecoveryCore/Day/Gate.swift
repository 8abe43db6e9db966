/// The questionnaire gate (RecoveryDeck spec §6.3, §18 criterion 1): today's questionnaire must be in before a
/// measurement starts or any metric (today's or past) is shown.
public enum Gate {
    /// The sentence shown when the gate refuses.
    public static let refusal = "Today's check-in comes first: answer the five questions, then measure or look back."

    /// True when `record` holds a questionnaire for `today`. A questionnaire from another day (yesterday's, or
    /// a record for a different date) does not open the gate.
    public static func hasTodaysQuestionnaire(today: LocalDate, questionnaire record: DayRecord?) -> Bool {
        guard let record, record.date == today, let questionnaire = record.questionnaire else { return false }
        return questionnaire.date == today
    }

    /// Spec §6.3: `canStartMeasurement(today:questionnaire:)`.
    public static func canStartMeasurement(today: LocalDate, questionnaire record: DayRecord?) -> Bool {
        hasTodaysQuestionnaire(today: today, questionnaire: record)
    }

    /// Spec §6.3: `canAccessHistory(today:questionnaire:)`; history includes today's and past metrics.
    public static func canAccessHistory(today: LocalDate, questionnaire record: DayRecord?) -> Bool {
        hasTodaysQuestionnaire(today: today, questionnaire: record)
    }
}

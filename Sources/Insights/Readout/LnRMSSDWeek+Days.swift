import RecoveryCore

extension LnRMSSDWeek {
    /// The figures for the morning `date` from stored days (any order, extra days ignored): one value per
    /// calendar day of the 60 ending on `date`, the day's valid rMSSD (`Channel.rmssd`: a capture whose quality
    /// passed) or none. A day not stored, or stored without a valid rMSSD, is a day without a reading.
    public init(days: some Sequence<DayRecord>, through date: LocalDate) {
        var byDay: [Int: Double] = [:]
        for day in days {
            if let v = Channel.rmssd.value(in: day) { byDay[day.date.dayNumber] = v }
        }
        let numbers = (date.dayNumber - Self.baselineWindow + 1)...date.dayNumber
        self.init(rmssd: numbers.map { byDay[$0] })
    }

    /// "k of the last 7 mornings valid", with the warning under 3 (Plews 2014).
    public var validityWords: String {
        let base = "\(validMornings) of the last \(Self.window) mornings valid"
        return isRollingMeanUnreliable
            ? base + "; the 7-day mean is unreliable (fewer than \(Self.minimumValidMornings))" : base
    }
}

import RecoveryCore

extension NotLikeYou {
    /// The detector over stored days (any order, extra days after `date` ignored): one entry per calendar day
    /// from the first stored day through `date`, each day's valid lying HR and rMSSD (`Channel.lyingHR`,
    /// `Channel.rmssd`: a capture whose quality passed) or none. Empty when nothing is stored by `date`.
    public static func run(
        days: some Sequence<DayRecord>, through date: LocalDate, parameters: Parameters = .default
    ) -> [(date: LocalDate, morning: Morning)] {
        var byDay: [Int: Day] = [:]
        for day in days where day.date <= date {
            byDay[day.date.dayNumber] = Day(
                lyingHR: Channel.lyingHR.value(in: day), rmssd: Channel.rmssd.value(in: day))
        }
        guard let first = byDay.keys.min() else { return [] }
        let numbers = Array(first...date.dayNumber)
        let result = run(numbers.map { byDay[$0] ?? Day(lyingHR: nil, rmssd: nil) }, parameters: parameters)
        return zip(numbers, result).map { (date.adding(days: $0 - date.dayNumber), $1) }
    }
}

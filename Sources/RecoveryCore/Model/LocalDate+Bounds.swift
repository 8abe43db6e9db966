extension LocalDate {
    /// The earliest day a morning can be stored for. Consumer RR-capable chest straps and HRV apps came
    /// after it, so an earlier day is a clock that was never set (a Raspberry Pi without a real-time
    /// clock starts at 1970-01-01) or a mistyped year (0001-01-01), not someone's history.
    public static let earliestMorning = LocalDate(year: 2000, month: 1, day: 1)!

    /// Why `self` cannot be a morning's day when the local day is `today`, or nil when it can: no day
    /// after today (it has not happened; a future check-in would open tomorrow's gate), none before
    /// `earliestMorning`.
    public func morningDateProblem(today: LocalDate) -> String? {
        if self > today {
            return "\(iso) is after today (\(today.iso)); a morning cannot be recorded before it happens."
        }
        if self < LocalDate.earliestMorning {
            return "\(iso) is before \(LocalDate.earliestMorning.iso); the date or the clock is wrong."
        }
        return nil
    }
}

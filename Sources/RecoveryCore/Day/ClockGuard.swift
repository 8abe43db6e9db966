/// Whether the wall clock can be trusted to date a record (a check-in or a morning). A Raspberry Pi has
/// no real-time clock before the Pi 5's battery: it boots with the time it saved at shutdown, often
/// yesterday's, until the network sets it. Filed under that date, a morning silently replaces the day
/// before's. The box refuses while the kernel says its clock is not synchronised *and* the date is not
/// later than the newest day already stored, unless this boot already filed that very day (the box then
/// meant it: a check-in followed by its morning).
public enum ClockGuard {
    /// The sentence the journal, `recoverydeck watch` and the CLI show on a refusal.
    public static let sentence =
        "The clock is not set (not synchronised, and not past the newest stored day): nothing was filed, so no "
        + "earlier day is replaced. Connect the box to a network or set the time (sudo date -s 'YYYY-MM-DD HH:MM'), "
        + "then try again."

    /// True when a record dated `date` may be filed. `synchronised` nil means the kernel could not say
    /// (treated as not synchronised: the refusal is cheap, a replaced day is not).
    public static func mayFile(
        on date: LocalDate, synchronised: Bool?, newestStored: LocalDate?, filedThisBoot: LocalDate?
    ) -> Bool {
        if synchronised == true { return true }
        guard let newestStored, date <= newestStored else { return true }
        return filedThisBoot == date
    }
}

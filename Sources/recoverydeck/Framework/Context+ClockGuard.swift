import Platform
import RecoveryCore
import Store

/// The clock guard for what the CLI files (RecoveryCore `ClockGuard`), with the facts the daemon weighs: the
/// program's clock's (the kernel's in `recoverydeck`), the newest stored day, and whether this boot recorded it.
/// A Pi without a real-time clock may boot with yesterday's date; a check-in then would silently replace
/// yesterday's answers.
extension Context {
    /// Throws the guard's sentence (exit 1) when a record dated `date` may not be filed now.
    func requireClockAllowsFiling(on date: LocalDate, in store: Store) throws {
        let facts = clock.guardFacts()
        guard facts.synchronised != true else { return }
        let newest = try store.lastDay()
        var filedThisBoot: LocalDate?
        if let newest, let booted = facts.bootEpochSeconds, let recorded = try store.lastRecordedAt(on: newest),
            recorded >= booted
        {
            filedThisBoot = newest
        }
        guard
            ClockGuard.mayFile(
                on: date, synchronised: facts.synchronised, newestStored: newest, filedThisBoot: filedThisBoot)
        else { throw CommandError.failure(ClockGuard.sentence) }
    }
}

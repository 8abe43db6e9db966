import Testing

@testable import RecoveryCore

/// A Pi booting with yesterday's date must not replace yesterday's records.
struct ClockGuardTests {
    let today = LocalDate(year: 2026, month: 3, day: 10)!
    var yesterday: LocalDate { today.adding(days: -1) }

    @Test("unsynchronised and dated on or before the newest stored day: refused")
    func refused() {
        #expect(!ClockGuard.mayFile(on: yesterday, synchronised: false, newestStored: yesterday, filedThisBoot: nil))
        #expect(!ClockGuard.mayFile(on: yesterday.adding(days: -3), synchronised: false, newestStored: yesterday,
            filedThisBoot: nil))
        #expect(!ClockGuard.mayFile(on: yesterday, synchronised: nil, newestStored: yesterday, filedThisBoot: nil),
            "unknown counts as unsynchronised")
        #expect(!ClockGuard.mayFile(on: yesterday, synchronised: false, newestStored: yesterday,
            filedThisBoot: yesterday.adding(days: -1)), "this boot filed another day")
    }

    @Test("synchronised, a new day, an empty store, or a day this boot already filed: allowed")
    func allowed() {
        #expect(ClockGuard.mayFile(on: yesterday, synchronised: true, newestStored: today, filedThisBoot: nil))
        #expect(ClockGuard.mayFile(on: today, synchronised: false, newestStored: yesterday, filedThisBoot: nil))
        #expect(ClockGuard.mayFile(on: today, synchronised: false, newestStored: nil, filedThisBoot: nil))
        #expect(ClockGuard.mayFile(on: today, synchronised: false, newestStored: today, filedThisBoot: today),
            "the check-in this boot filed, then its morning")
    }
}

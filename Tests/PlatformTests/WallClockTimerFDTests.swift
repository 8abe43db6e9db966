import Platform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The reminder's wall-clock timer: it fires at a wall-clock instant, and an instant already past fires at
/// once (the loop then looks again), never waiting for a later wake-up.
struct WallClockTimerFDTests {
    @Test("armed at a past instant it is readable at once and reads as fired; a far one does not fire")
    func pastAndFuture() throws {
        let timer = try WallClockTimerFD()
        defer { timer.close() }
        try timer.arm(atEpochMs: SystemClock.epochSeconds() * 1000 - 60_000)
        var poller = pollfd(fd: timer.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 1000) == 1)
        #expect(try timer.acknowledge() == .fired)
        try timer.arm(atEpochMs: (SystemClock.epochSeconds() + 3600) * 1000)
        #expect(try timer.acknowledge() == WallClockTimerFD.Expiry.none)
        try timer.disarm()
        #expect(try timer.acknowledge() == WallClockTimerFD.Expiry.none)
    }
}

import Testing

@testable import BlueZ

@Suite struct ReconnectScheduleTests {
    @Test("DESIGN §5 field problems: the first retry is quick, then backs off to a cap")
    func firstRetryIsQuickThenBacksOffToACap() {
        let schedule = ReconnectSchedule.standard
        let delays = (1...9).map { schedule.delayMs(afterFailures: $0) }
        #expect(delays == [250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000, 5_000])
    }

    @Test("DESIGN §5: reconnection delays never shrink as failures accumulate")
    func delaysNeverShrinkAsFailuresAccumulate() {
        let schedule = ReconnectSchedule.standard
        let delays = (1...50).map { schedule.delayMs(afterFailures: $0) }
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(delays.max() == 5_000)
    }

    @Test("A failure count of zero or less waits as after the first failure")
    func zeroOrNegativeFailureCountsAreTreatedAsTheFirst() {
        let schedule = ReconnectSchedule(delaysMs: [100, 900])
        #expect(schedule.delayMs(afterFailures: 0) == 100)
        #expect(schedule.delayMs(afterFailures: -3) == 100)
    }
}

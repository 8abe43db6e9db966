import Testing

@testable import BlueZ

@Suite struct ReconnectScheduleTests {
    @Test func firstRetryIsQuickThenBacksOffToACap() {
        let schedule = ReconnectSchedule.standard
        let delays = (1...9).map { schedule.delayMs(afterFailures: $0) }
        #expect(delays == [250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000, 5_000])
    }

    @Test func delaysNeverShrinkAsFailuresAccumulate() {
        let schedule = ReconnectSchedule.standard
        let delays = (1...50).map { schedule.delayMs(afterFailures: $0) }
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(delays.max() == 5_000)
    }

    @Test func zeroOrNegativeFailureCountsAreTreatedAsTheFirst() {
        let schedule = ReconnectSchedule(delaysMs: [100, 900])
        #expect(schedule.delayMs(afterFailures: 0) == 100)
        #expect(schedule.delayMs(afterFailures: -3) == 100)
    }
}

import Platform
import RecoveryCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` with `TZ` set to `zone`, restoring the previous value. The suites that call it are
/// serialized; nothing else in the test process sets `TZ`.
private func withTimeZone<R>(_ zone: String, _ body: () throws -> R) rethrows -> R {
    let previous = getenv("TZ").map { String(cString: $0) }
    setenv("TZ", zone, 1)
    tzset()
    defer {
        if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
        tzset()
    }
    return try body()
}

private func day(_ y: Int, _ m: Int, _ d: Int) -> LocalDate { LocalDate(year: y, month: m, day: d)! }
private func at(_ h: Int, _ m: Int) -> MinuteOfDay { MinuteOfDay(hour: h, minute: m)! }

// Instants below are from the IANA tz database rules: US DST 2024 began 10 March 02:00 EST and ended
// 3 November 02:00 EDT; EU summer time 2024 began 31 March 01:00 UTC and ended 27 October 01:00 UTC.
@Suite("LocalTime: local days across DST changes (DESIGN §4 Clock; RecoveryDeck spec §6.3 local day)", .serialized)
struct LocalTimeTests {
    @Test("New York fall-back: 01:30 happens twice (EDT then EST), both on the same local day")
    func newYorkFallBackRepeatsAnHour() {
        withTimeZone("America/New_York") {
            let first = LocalTime(epochSeconds: 1_730_611_800)  // 05:30 UTC
            let second = LocalTime(epochSeconds: 1_730_615_400)  // 06:30 UTC
            #expect(first.date == day(2024, 11, 3) && second.date == day(2024, 11, 3))
            #expect(first.minuteOfDay == at(1, 30) && second.minuteOfDay == at(1, 30))
            #expect(first.utcOffsetSeconds == -4 * 3600)
            #expect(second.utcOffsetSeconds == -5 * 3600)
            #expect(LocalTime.epochSeconds(of: day(2024, 11, 3), at: at(1, 30)) == 1_730_611_800)
        }
    }

    @Test("New York spring-forward: 02:30 never happens; asking for it gives 03:00 EDT, the end of the gap")
    func newYorkSpringForwardSkipsAnHour() {
        withTimeZone("America/New_York") {
            let before = LocalTime(epochSeconds: 1_710_053_999)  // 06:59:59 UTC
            let after = LocalTime(epochSeconds: 1_710_054_000)  // 07:00:00 UTC
            #expect(before.minuteOfDay == at(1, 59) && before.second == 59)
            #expect(after.minuteOfDay == at(3, 0))
            #expect(before.date == day(2024, 3, 10) && after.date == day(2024, 3, 10))
            #expect(LocalTime.epochSeconds(of: day(2024, 3, 10), at: at(2, 30)) == 1_710_054_000)
        }
    }

    @Test("DST days are 23 and 25 hours long; the 06:30 reminder is still 06:30 local on both")
    func dstDayLengthsAndReminder() {
        withTimeZone("America/New_York") {
            let march10 = LocalTime.epochSeconds(of: day(2024, 3, 10), at: at(0, 0))
            let march11 = LocalTime.epochSeconds(of: day(2024, 3, 11), at: at(0, 0))
            let nov3 = LocalTime.epochSeconds(of: day(2024, 11, 3), at: at(0, 0))
            let nov4 = LocalTime.epochSeconds(of: day(2024, 11, 4), at: at(0, 0))
            #expect(march11 - march10 == 23 * 3600)
            #expect(nov4 - nov3 == 25 * 3600)
            let reminder = LocalTime.epochSeconds(of: day(2024, 11, 3), at: at(6, 30))
            #expect(reminder == 1_730_633_400)  // 11:30 UTC = 06:30 EST
            #expect(LocalTime(epochSeconds: reminder).minuteOfDay == at(6, 30))
        }
    }

    @Test("Berlin: 02:30 on 27 October 2024 happens twice, 02:30 on 31 March 2024 never")
    func berlinBothDirections() {
        withTimeZone("Europe/Berlin") {
            let cest = LocalTime(epochSeconds: 1_729_989_000)  // 00:30 UTC
            let cet = LocalTime(epochSeconds: 1_729_992_600)  // 01:30 UTC
            #expect(cest.minuteOfDay == at(2, 30) && cet.minuteOfDay == at(2, 30))
            #expect(cest.utcOffsetSeconds == 7200 && cet.utcOffsetSeconds == 3600)
            #expect(LocalTime.epochSeconds(of: day(2024, 10, 27), at: at(2, 30)) == 1_729_989_000)
            // 01:00 UTC on 31 March is 03:00 CEST; 00:59:59 UTC is 01:59:59 CET.
            #expect(LocalTime(epochSeconds: 1_711_846_799).minuteOfDay == at(1, 59))
            #expect(LocalTime(epochSeconds: 1_711_846_800).minuteOfDay == at(3, 0))
            #expect(LocalTime.epochSeconds(of: day(2024, 3, 31), at: at(2, 30)) == 1_711_846_800)
        }
    }

    @Test("The local day is not the UTC day: 22:30 UTC on 26 October is already 27 October in Berlin")
    func localDayDiffersFromUTCDay() {
        withTimeZone("Europe/Berlin") {
            let t = LocalTime(epochSeconds: 1_729_981_800)  // 2024-10-26 22:30 UTC
            #expect(t.date == day(2024, 10, 27))
            #expect(t.minuteOfDay == at(0, 30))
        }
        withTimeZone("America/New_York") {
            let t = LocalTime(epochSeconds: 1_729_981_800)
            #expect(t.date == day(2024, 10, 26))
            #expect(t.minuteOfDay == at(18, 30))
        }
    }

    @Test("Round trip: every local minute of both New York DST days reads back the same, except the skipped hour")
    func roundTripThroughDSTDays() {
        withTimeZone("America/New_York") {
            for date in [day(2024, 3, 10), day(2024, 11, 3)] {
                for minutes in stride(from: 0, to: 1440, by: 1) {
                    let minute = MinuteOfDay(minutes: minutes)!
                    let back = LocalTime(epochSeconds: LocalTime.epochSeconds(of: date, at: minute))
                    let skipped = date == day(2024, 3, 10) && minute.hour == 2
                    #expect(back.date == date)
                    #expect(back.minuteOfDay == (skipped ? at(3, 0) : minute), "\(date) \(minute)")
                }
            }
        }
    }
}

import LocalClock
import Platform
import RecoveryCore
import Testing

// The DST behaviour itself (libc, TZ, the system zone file) is tested on CivilTime in PlatformTests, whose
// suites may set TZ; these read the test process's zone and never set it.
@Suite("LocalTime: Platform's civil time as the domain's day and minute (DESIGN §4 Clock)")
struct LocalTimeTests {
    @Test("Each civil field lands in its place: 2024-11-03 01:30:59 at UTC−4")
    func fieldsFromCivilTime() {
        let civil = CivilTime(year: 2024, month: 11, day: 3, hour: 1, minute: 30, second: 59, utcOffsetSeconds: -14_400)
        let local = LocalTime(civil)
        #expect(local.date == LocalDate(year: 2024, month: 11, day: 3))
        #expect(local.minuteOfDay == MinuteOfDay(hhmm: "01:30"))
        #expect(local.second == 59)
        #expect(local.utcOffsetSeconds == -14_400)
    }

    @Test("An instant reads as the civil time libc gives for it, and a day's minute converts as Platform converts it")
    func agreesWithCivilTime() {
        for epoch: Int64 in [0, 1_710_053_999, 1_710_054_000, 1_729_981_800, 1_730_611_800, 1_730_615_400] {
            #expect(LocalTime(epochSeconds: epoch) == LocalTime(CivilTime(epochSeconds: epoch)), "\(epoch)")
        }
        let day = LocalDate(year: 2024, month: 3, day: 10)!
        for hhmm in ["00:00", "02:30", "06:30", "23:59"] {
            let minute = MinuteOfDay(hhmm: hhmm)!
            #expect(
                LocalTime.epochSeconds(of: day, at: minute)
                    == CivilTime.epochSeconds(year: 2024, month: 3, day: 10, hour: minute.hour, minute: minute.minute),
                "\(hhmm)")
        }
        let reminder = LocalTime(epochSeconds: LocalTime.epochSeconds(of: day, at: MinuteOfDay(hhmm: "06:30")!))
        #expect(reminder.date == day && reminder.minuteOfDay == MinuteOfDay(hhmm: "06:30") && reminder.second == 0)
    }
}

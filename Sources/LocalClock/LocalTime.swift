import Platform
import RecoveryCore

/// Local time in the domain's terms: Platform's `CivilTime` (libc `localtime_r`, which honours `TZ` and
/// `/etc/localtime`; DESIGN §4 "Clock") as the `LocalDate` and `MinuteOfDay` the cores take, for the daemon and
/// the command line. A module of its own, knowing both, so that Platform stays an edge free of the domain core.
public struct LocalTime: Hashable, Sendable {
    public var date: LocalDate
    public var minuteOfDay: MinuteOfDay
    public var second: Int
    /// Offset from UTC in seconds at that instant (east positive).
    public var utcOffsetSeconds: Int

    /// The domain's reading of `civil`, which libc gives as a real calendar date and time.
    public init(_ civil: CivilTime) {
        self.date = LocalDate(year: civil.year, month: civil.month, day: civil.day)!
        self.minuteOfDay = MinuteOfDay(hour: civil.hour, minute: civil.minute)!
        self.second = civil.second
        self.utcOffsetSeconds = civil.utcOffsetSeconds
    }

    /// The local time at `epochSeconds` in the system time zone (`TZ` re-read each call).
    public init(epochSeconds: Int64) { self.init(CivilTime(epochSeconds: epochSeconds)) }

    /// The local time now.
    public static func now() -> LocalTime { LocalTime(CivilTime.now()) }

    /// The first epoch second at which the local clock reads `date` `minute`:00: a repeated time's first
    /// occurrence, and for a time in a spring-forward gap the end of the gap (`CivilTime.epochSeconds`).
    public static func epochSeconds(of date: LocalDate, at minute: MinuteOfDay) -> Int64 {
        CivilTime.epochSeconds(
            year: date.year, month: date.month, day: date.day, hour: minute.hour, minute: minute.minute)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
import RecoveryCore

/// The two clocks the box reads (DESIGN §4 "Clock"): durations from `CLOCK_MONOTONIC`, the local
/// calendar day from the wall clock and the system time zone. Only edges read them; cores get "now"
/// as a parameter.
public enum SystemClock {
    /// Milliseconds on `CLOCK_MONOTONIC` (never jumps when the wall clock is set).
    public static func monotonicMs() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Nanoseconds on `CLOCK_MONOTONIC`, for benchmarks and fine timers.
    public static func monotonicNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Seconds since the Unix epoch (UTC), from `CLOCK_REALTIME`.
    public static func epochSeconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }
}

/// Local civil time through libc's `localtime_r`, which honours both `TZ` and `/etc/localtime`
/// (FoundationEssentials' `TimeZone.current` is GMT on Linux whatever `TZ` says; DESIGN §4).
public struct LocalTime: Hashable, Sendable {
    public var date: LocalDate
    public var minuteOfDay: MinuteOfDay
    public var second: Int
    /// Offset from UTC in seconds at that instant (east positive).
    public var utcOffsetSeconds: Int

    /// The local time at `epochSeconds` in the system time zone. Re-reads `TZ` each call (`tzset`).
    /// The corresponding C function is `localtime_r`.
    public init(epochSeconds: Int64) {
        tzset()
        var t = time_t(epochSeconds)
        var parts = tm()
        localtime_r(&t, &parts)
        self.date = LocalDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))!
        self.minuteOfDay = MinuteOfDay(hour: Int(parts.tm_hour), minute: Int(parts.tm_min))!
        self.second = Int(min(parts.tm_sec, 59))
        self.utcOffsetSeconds = Int(parts.tm_gmtoff)
    }

    /// The local time now.
    public static func now() -> LocalTime { LocalTime(epochSeconds: SystemClock.epochSeconds()) }

    /// The epoch second at which local `date` + `minute` begins, or the first instant after a gap
    /// (spring-forward). The corresponding C function is `mktime`.
    public static func epochSeconds(of date: LocalDate, at minute: MinuteOfDay) -> Int64 {
        tzset()
        var parts = tm()
        parts.tm_year = Int32(date.year - 1900)
        parts.tm_mon = Int32(date.month - 1)
        parts.tm_mday = Int32(date.day)
        parts.tm_hour = Int32(minute.hour)
        parts.tm_min = Int32(minute.minute)
        parts.tm_sec = 0
        parts.tm_isdst = -1
        return Int64(mktime(&parts))
    }
}

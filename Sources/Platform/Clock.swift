import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// The two clocks the box reads (DESIGN §4 "Clock"): durations from `CLOCK_MONOTONIC`, the local
/// calendar day from the wall clock and the system time zone. Only edges read them; cores get "now"
/// as a parameter.
public enum SystemClock {
    /// Whether the kernel says its clock is synchronised: adjtimex(2) with no changes: TIME_ERROR or STA_UNSYNC means it is not. Nil when it cannot
    /// tell (a seccomp filter such as the unit's ProtectClock refuses adjtimex with EPERM).
    /// <sys/timex.h> is not in Swift's Glibc module; the shim makes the call, so `struct timex` is laid out by the C headers of the
    /// architecture it is built for.
    public static func kernelSynchronized() -> Bool? {
        let state = cplatform_kernel_clock_synchronized()
        return state < 0 ? nil : state == 1
    }

    /// What the clock guard asks of the kernel (RecoveryCore `ClockGuard`): whether the clock is
    /// synchronised (nil: it cannot tell) and the wall-clock second this boot began.
    public struct GuardFacts: Hashable, Sendable {
        public var synchronised: Bool?
        public var bootEpochSeconds: Int64?

        public init(synchronised: Bool?, bootEpochSeconds: Int64?) {
            self.synchronised = synchronised
            self.bootEpochSeconds = bootEpochSeconds
        }
    }

    /// The kernel's facts: adjtimex, and where that is refused (the unit's ProtectClock) systemd-timesyncd's
    /// flag file, which it creates once it has synchronised (systemd-timesyncd.service(8)).
    public static func guardFacts() -> GuardFacts {
        let synchronised =
            kernelSynchronized() ?? (access("/run/systemd/timesync/synchronized", F_OK) == 0 ? true : nil)
        return GuardFacts(synchronised: synchronised, bootEpochSeconds: bootEpochSeconds())
    }

    /// The wall-clock second this boot began by the present wall clock: now less `CLOCK_BOOTTIME` (which
    /// counts suspend too). Records stamped at or after it were stamped by this boot's clock.
    public static func bootEpochSeconds() -> Int64? {
        var t = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &t) == 0 else { return nil }
        return epochSeconds() - Int64(t.tv_sec)
    }

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
/// (FoundationEssentials' `TimeZone.current` is GMT on Linux whatever `TZ` says; DESIGN §4). Plain
/// calendar fields: the domain's `LocalDate` and `MinuteOfDay` are made from them where both are known.
public struct CivilTime: Hashable, Sendable {
    public var year: Int
    /// 1–12.
    public var month: Int
    /// 1–31.
    public var day: Int
    /// 0–23.
    public var hour: Int
    /// 0–59.
    public var minute: Int
    /// 0–59: a leap second reads 59.
    public var second: Int
    /// Offset from UTC in seconds at that instant (east positive).
    public var utcOffsetSeconds: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffsetSeconds: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The local time at `epochSeconds` in the system time zone. Re-reads `TZ` each call (`tzset`).
    /// The corresponding C function is `localtime_r`.
    public init(epochSeconds: Int64) {
        tzset()
        var t = time_t(epochSeconds)
        var parts = tm()
        localtime_r(&t, &parts)
        self.init(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(min(parts.tm_sec, 59)),
            utcOffsetSeconds: Int(parts.tm_gmtoff))
    }

    /// The local time now.
    public static func now() -> CivilTime { CivilTime(epochSeconds: SystemClock.epochSeconds()) }

    /// The zone file libc reads when `TZ` is unset: etc/localtime under `root` ("/" on the box).
    public static func systemZoneFile(root: String = "/") -> String {
        (root.hasSuffix("/") ? root : root + "/") + "etc/localtime"
    }

    /// Makes local time follow the system zone of the tree at `root` (a folder laid out like "/", as doctor's
    /// `SystemFacts.root`): when `TZ` is unset it becomes ":" and that zone file, the POSIX form libc reads
    /// (tzset(3)); a set `TZ` still wins, as on the box. With "/" nothing changes. It sets the process
    /// environment, so call it once before any thread starts.
    public static func followSystemZone(root: String) {
        guard root != "/", getenv("TZ") == nil else { return }
        setenv("TZ", ":" + systemZoneFile(root: root), 1)
    }

    /// The first epoch second at which the local clock reads `year`-`month`-`day` `hour`:`minute`:00 (a valid
    /// calendar date). On a fall-back day a time that happens twice gives its first occurrence; on a
    /// spring-forward day a time that never happens (02:30 in the gap) gives the end of the gap (03:00), the
    /// first instant the clock is past it. The corresponding C function is `mktime`.
    public static func epochSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int) -> Int64 {
        tzset()
        // Wall readings compare as (year, month, day, second of the day): calendar order.
        let target = (year, month, day, hour * 3600 + minute * 60)
        func wall(_ t: Int64) -> (Int, Int, Int, Int) {
            var clock = time_t(t)
            var parts = tm()
            localtime_r(&clock, &parts)
            return (
                Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                Int(parts.tm_hour) * 3600 + Int(parts.tm_min) * 60 + Int(parts.tm_sec)
            )
        }
        func convert(isDST: Int32) -> Int64 {
            var parts = tm()
            parts.tm_year = Int32(year - 1900)
            parts.tm_mon = Int32(month - 1)
            parts.tm_mday = Int32(day)
            parts.tm_hour = Int32(hour)
            parts.tm_min = Int32(minute)
            parts.tm_sec = 0
            parts.tm_isdst = isDST
            return Int64(mktime(&parts))
        }
        let guess = convert(isDST: -1)
        // Every instant within three hours whose wall clock matches: both readings of a repeated hour.
        var candidates = [guess, convert(isDST: 0), convert(isDST: 1)]
        for shift: Int64 in [1800, 3600, 7200] { candidates += [guess - shift, guess + shift] }
        if let first = candidates.filter({ wall($0) == target }).min() { return first }
        // In a gap: the first second whose wall clock is past the target (monotonic across one transition).
        var low = guess - 3 * 3600
        var high = guess + 3 * 3600
        while low < high {
            let middle = low + (high - low) / 2
            if wall(middle) >= target { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

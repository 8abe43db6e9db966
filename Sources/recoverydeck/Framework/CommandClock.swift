import LocalClock
import Platform

/// The time as the commands read it, given to `Program` by the executable that runs it: `recoverydeck` gives the
/// system's clock, and a test tool its own. Commands read the time only through `Context`, which asks this.
public protocol CommandClock: Sendable {
    /// The local time now, in the system time zone (TZ, /etc/localtime).
    func now() -> LocalTime

    /// Seconds since the Unix epoch now.
    func epochSeconds() -> Int64

    /// What the clock guard weighs before a record is filed (RecoveryCore `ClockGuard`): whether the clock is
    /// synchronised, and when this boot began.
    func guardFacts() -> SystemClock.GuardFacts
}

/// The system's clock and the kernel's facts about it: the only clock of the shipped `recoverydeck`.
public struct SystemCommandClock: CommandClock {
    public init() {}

    public func now() -> LocalTime { LocalTime.now() }

    public func epochSeconds() -> Int64 { SystemClock.epochSeconds() }

    public func guardFacts() -> SystemClock.GuardFacts { SystemClock.guardFacts() }
}

import LocalClock
import Platform
import RecoveryCore
import RecoveryDeckCommands

/// A clock that reads the local time it was given and never moves, for the tests and `recoverydeck-fixture`: a
/// command's "today" set without touching the system's clock. Its facts default to a synchronised clock, so the
/// clock guard trusts the stated time as the daemon trusts a simulated box's clock.
public struct StatedClock: CommandClock {
    public let time: LocalTime
    public let facts: SystemClock.GuardFacts

    public init(_ time: LocalTime, facts: SystemClock.GuardFacts = .init(synchronised: true, bootEpochSeconds: nil)) {
        self.time = time
        self.facts = facts
    }

    /// `YYYY-MM-DDTHH:MM` as a local time in the system time zone; nil when `text` is not one.
    public init?(stating text: String, facts: SystemClock.GuardFacts = .init(synchronised: true, bootEpochSeconds: nil))
    {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = LocalDate(iso: parts[0]), let minute = MinuteOfDay(hhmm: parts[1]) else {
            return nil
        }
        self.init(LocalTime(epochSeconds: LocalTime.epochSeconds(of: date, at: minute)), facts: facts)
    }

    public func now() -> LocalTime { time }

    public func epochSeconds() -> Int64 {
        LocalTime.epochSeconds(of: time.date, at: time.minuteOfDay) + Int64(time.second)
    }

    public func guardFacts() -> SystemClock.GuardFacts { facts }
}

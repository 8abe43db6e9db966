/// When to try again after a failed connection or a lost link: quick at first (body blocking and
/// brief range losses heal within seconds; DESIGN §5 "Known field problems"), then backing off to
/// a steady pace so a strap left in a drawer costs one attempt every few seconds, not a busy loop.
public struct ReconnectSchedule: Hashable, Sendable {
    /// Delays in milliseconds, one per consecutive failure; the last repeats.
    public var delaysMs: [Int64]

    public static let standard = ReconnectSchedule(delaysMs: [250, 500, 1_000, 2_000, 4_000, 5_000])

    public init(delaysMs: [Int64]) {
        precondition(!delaysMs.isEmpty && delaysMs.allSatisfy { $0 >= 0 }, "a schedule needs delays ≥ 0")
        self.delaysMs = delaysMs
    }

    /// The wait before attempt `failures + 1`, where `failures` ≥ 1 counts the failures since the
    /// link was last live.
    public func delayMs(afterFailures failures: Int) -> Int64 {
        delaysMs[min(max(failures, 1), delaysMs.count) - 1]
    }
}

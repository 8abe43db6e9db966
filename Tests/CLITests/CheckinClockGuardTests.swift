import Foundation
import Testing

/// `recoverydeck checkin` under an unset clock (a Pi without a real-time clock, booted with yesterday's
/// date before the network set it): the same refusal as the daemon's, exit 1, nothing changed. The
/// kernel's facts are stated through the test-only RECOVERYDECK_TEST_UNSYNCHRONISED_BOOT, as the
/// daemon's tests state them.
struct CheckinClockGuardTests {
    static let scores = ["--fatigue", "5", "--mood", "6", "--soreness", "4", "--stress", "5", "--sleep", "6"]
    static let sentence = "The clock is not set (not synchronised, and not past the newest stored day)"

    @Test("An unsynchronised clock on or before the newest stored day: one sentence, exit 1, the database as it was")
    func refusedUnderUnsetClock() throws {
        var cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        // An earlier boot filed 2026-03-11 at 07:00 local (06:00 UTC).
        #expect(try cli.run(["checkin", "--now", "2026-03-11T07:00"] + Self.scores).status == 0)
        let exportNow = ["export", "--now", "2026-03-12T10:00"]
        let before = try cli.run(exportNow).stdout
        // This boot began at 2026-03-11 07:00 UTC, after that record; the kernel says "not synchronised".
        cli.environment["RECOVERYDECK_TEST_UNSYNCHRONISED_BOOT"] = "1773212400"
        for now in ["2026-03-10T07:00", "2026-03-11T09:00"] {
            let refused = try cli.run(["checkin", "--now", now, "--fatigue", "1"] + Self.scores.dropFirst(2))
            #expect(refused.status == 1, "\(now)")
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.hasPrefix("recoverydeck checkin: " + Self.sentence), "\(refused.stderr)")
            #expect(try cli.run(exportNow).stdout == before, "nothing changed (\(now))")
        }
        // A day after the newest stored one is safe to file, and this boot may then replace what it filed.
        #expect(try cli.run(["checkin", "--now", "2026-03-12T07:00"] + Self.scores).status == 0)
        let again = try cli.run(["checkin", "--now", "2026-03-12T08:00", "--fatigue", "2"] + Self.scores.dropFirst(2))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Replaced") || again.stderr.contains("Replaced"))
    }
}

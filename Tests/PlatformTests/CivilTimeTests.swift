import Foundation
import Platform
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` with `TZ` set to `zone`, restoring the previous value. `TZ` is the whole process's: a daemon
/// harness reading its local day in a test running beside these would read it in New York or Berlin (a box at
/// 21:00 in one zone is at 03:00 the next day in another), so CivilTimeTests runs only in a child process of
/// its own (CivilTimeInItsOwnProcessTests), where nothing else runs.
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

/// The local calendar day and minute a person reads at `epochSeconds`, as "2024-11-03 01:30".
private func wall(_ epochSeconds: Int64) -> String { wall(CivilTime(epochSeconds: epochSeconds)) }

private func wall(_ t: CivilTime) -> String {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(t.year)-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute))"
}

/// The first epoch second the local clock reads that day and time.
private func epoch(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int) -> Int64 {
    CivilTime.epochSeconds(year: y, month: m, day: d, hour: h, minute: min)
}

// Instants below are from the IANA tz database rules: US DST 2024 began 10 March 02:00 EST and ended
// 3 November 02:00 EDT; EU summer time 2024 began 31 March 01:00 UTC and ended 27 October 01:00 UTC.
@Suite(
    "CivilTime: local days across DST changes (DESIGN §4 Clock; RecoveryDeck spec §6.3 local day)", .serialized,
    .enabled(if: getenv(civilTimeChildMarker) != nil, "runs in a child process of its own"))
struct CivilTimeTests {
    @Test("New York fall-back: 01:30 happens twice (EDT then EST), both on the same local day")
    func newYorkFallBackRepeatsAnHour() {
        withTimeZone("America/New_York") {
            let first = CivilTime(epochSeconds: 1_730_611_800)  // 05:30 UTC
            let second = CivilTime(epochSeconds: 1_730_615_400)  // 06:30 UTC
            #expect(wall(first) == "2024-11-03 01:30" && wall(second) == "2024-11-03 01:30")
            #expect(first.utcOffsetSeconds == -4 * 3600)
            #expect(second.utcOffsetSeconds == -5 * 3600)
            #expect(epoch(2024, 11, 3, 1, 30) == 1_730_611_800)
        }
    }

    @Test("New York spring-forward: 02:30 never happens; asking for it gives 03:00 EDT, the end of the gap")
    func newYorkSpringForwardSkipsAnHour() {
        withTimeZone("America/New_York") {
            let before = CivilTime(epochSeconds: 1_710_053_999)  // 06:59:59 UTC
            let after = CivilTime(epochSeconds: 1_710_054_000)  // 07:00:00 UTC
            #expect(wall(before) == "2024-03-10 01:59" && before.second == 59)
            #expect(wall(after) == "2024-03-10 03:00" && after.second == 0)
            #expect(epoch(2024, 3, 10, 2, 30) == 1_710_054_000)
        }
    }

    @Test("DST days are 23 and 25 hours long; the 06:30 reminder is still 06:30 local on both")
    func dstDayLengthsAndReminder() {
        withTimeZone("America/New_York") {
            #expect(epoch(2024, 3, 11, 0, 0) - epoch(2024, 3, 10, 0, 0) == 23 * 3600)
            #expect(epoch(2024, 11, 4, 0, 0) - epoch(2024, 11, 3, 0, 0) == 25 * 3600)
            let reminder = epoch(2024, 11, 3, 6, 30)
            #expect(reminder == 1_730_633_400)  // 11:30 UTC = 06:30 EST
            #expect(wall(reminder) == "2024-11-03 06:30")
        }
    }

    @Test("Berlin: 02:30 on 27 October 2024 happens twice, 02:30 on 31 March 2024 never")
    func berlinBothDirections() {
        withTimeZone("Europe/Berlin") {
            let cest = CivilTime(epochSeconds: 1_729_989_000)  // 00:30 UTC
            let cet = CivilTime(epochSeconds: 1_729_992_600)  // 01:30 UTC
            #expect(wall(cest) == "2024-10-27 02:30" && wall(cet) == "2024-10-27 02:30")
            #expect(cest.utcOffsetSeconds == 7200 && cet.utcOffsetSeconds == 3600)
            #expect(epoch(2024, 10, 27, 2, 30) == 1_729_989_000)
            // 01:00 UTC on 31 March is 03:00 CEST; 00:59:59 UTC is 01:59:59 CET.
            #expect(wall(1_711_846_799) == "2024-03-31 01:59")
            #expect(wall(1_711_846_800) == "2024-03-31 03:00")
            #expect(epoch(2024, 3, 31, 2, 30) == 1_711_846_800)
        }
    }

    @Test("The local day is not the UTC day: 22:30 UTC on 26 October is already 27 October in Berlin")
    func localDayDiffersFromUTCDay() {
        withTimeZone("Europe/Berlin") {
            #expect(wall(1_729_981_800) == "2024-10-27 00:30")  // 2024-10-26 22:30 UTC
        }
        withTimeZone("America/New_York") {
            #expect(wall(1_729_981_800) == "2024-10-26 18:30")
        }
    }

    @Test("Round trip: every local minute of both New York DST days reads back the same, except the skipped hour")
    func roundTripThroughDSTDays() {
        withTimeZone("America/New_York") {
            for (month, day) in [(3, 10), (11, 3)] {
                for minutes in stride(from: 0, to: 1440, by: 1) {
                    let (hour, minute) = (minutes / 60, minutes % 60)
                    let back = CivilTime(epochSeconds: epoch(2024, month, day, hour, minute))
                    let skipped = month == 3 && hour == 2
                    #expect((back.year, back.month, back.day) == (2024, month, day))
                    let expected = skipped ? (3, 0) : (hour, minute)
                    #expect((back.hour, back.minute) == expected, "\(month)-\(day) \(minutes)")
                    #expect(back.second == 0)
                }
            }
        }
    }
}

/// Set in the child process that runs CivilTimeTests.
let civilTimeChildMarker = "RECOVERYDECK_CIVIL_TIME_CHILD"

/// CivilTimeTests sets `TZ`, which every thread of the process reads: it runs in a child process, this test
/// binary filtered to that suite, and passes when the child does.
@Suite(.enabled(if: getenv(civilTimeChildMarker) == nil))
struct CivilTimeInItsOwnProcessTests {
    @Test("CivilTime's DST suite, which sets TZ, passes in a process of its own")
    func suiteInItsOwnProcess() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("civil-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let child = try Child(
            try ChildProcess.testBinary(),
            ["--testing-library", "swift-testing", "--filter", #"PlatformTests\.CivilTimeTests/"#],
            environment: ["PATH": "/usr/bin:/bin", civilTimeChildMarker: "1", "SWIFT_BACKTRACE": "enable=no"], stdin: .null,
            stdout: .null, stderr: .file(output.path))  // Swift Testing reports on standard error.
        let ended = try child.wait()
        let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(ended == .exit(0), "\(said)")
        // The child ran the suite's tests, not none of them.
        #expect(said.contains("Test run with 6 tests"), "\(said)")
    }
}

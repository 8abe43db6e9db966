import Foundation
import RecoveryCore
import Store
import Testing

/// `recoverydeck export --format intervals|goldencheetah` and `export --rr DAY` as a person runs them: the
/// files, the upload line on standard error, and the refusals.
struct ExportFormatCommandTests {
    /// A box with 30 synthetic mornings from 1 March 2026, each started at 06:30 Stockholm time (05:30 UTC).
    func filled() throws -> RecoveryDeckProcess {
        let cli = try RecoveryDeckProcess()
        let store = try Store(path: cli.databasePath)
        let first = LocalDate(year: 2026, month: 3, day: 1)!
        try store.seedSyntheticHistory(
            person: SyntheticPerson(seed: 7, firstDate: first), days: 0..<30,
            startedAt: { 1_772_343_000 + Int64($0.dayNumber - first.dayNumber) * 86_400 })
        return cli
    }

    @Test("intervals: the wellness CSV on stdout, and the one curl line for the person's own computer on stderr")
    func intervals() throws {
        let cli = try filled()
        defer { cli.remove() }
        let out = try cli.run(["export", "--format", "intervals"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("date,restingHR,hrv,hrvSDNN,fatigue,soreness,stress,mood,sleepQuality,comments\n"))
        #expect(out.stdout.contains("\n2026-03-01,"))
        #expect(
            out.stderr.contains(
                "curl -u API_KEY:YOUR_API_KEY -F file=@wellness.csv https://intervals.icu/api/v1/athlete/0/wellness"))
        let file = cli.directory.appendingPathComponent("w.csv").path
        let written = try cli.run(["export", "--format", "intervals", "-o", file])
        #expect(written.status == 0)
        #expect(written.stderr.contains("-F file=@\(file) "))
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved == out.stdout)
    }

    @Test("goldencheetah: the local start time in the timestamp, the date written YYYY-DD-MM")
    func goldenCheetah() throws {
        let cli = try filled()
        defer { cli.remove() }
        let out = try cli.run(["export", "--format", "goldencheetah"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("timestamp_measurement,date,time,HR,AVNN,SDNN,rMSSD\n"))
        #expect(out.stdout.contains("\n2026-03-02T06:30:00,2026-02-03,06:30,"))
        #expect(out.stderr.isEmpty)
    }

    @Test("--rr DAY: the morning's RR with its header; a day without one, or --rr with --format, is refused")
    func rr() throws {
        let cli = try filled()
        defer { cli.remove() }
        let out = try cli.run(["export", "--rr", "2026-03-03"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("# RecoveryDeck morning 2026-03-03, started 06:30: RR intervals in ms"))
        let file = cli.directory.appendingPathComponent("2026-03-03.txt").path
        try out.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let analyzed = try cli.run(["rr", "analyze", file, "--window", "morning"])
        #expect(analyzed.status == 0 && analyzed.stdout.contains("quality"))

        let missing = try cli.run(["export", "--rr", "2026-04-20"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("No morning is stored for 2026-04-20; nothing was written."))
        let both = try cli.run(["export", "--rr", "2026-03-03", "--format", "csv"])
        #expect(both.status == 64)
        #expect(both.stdout.isEmpty)
        let full = try cli.run(["export", "--format", "intervals", "--full"])
        #expect(full.status == 64)
    }
}

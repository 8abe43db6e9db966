import Foundation
import Platform
import RecoveryCore
import RecoveryDeckCommandsTesting
import Store
import Testing

@testable import RecoveryDeckCommands

/// `recoverydeck checkin` under an unset clock (a Pi without a real-time clock, booted with yesterday's
/// date before the network set it): the same refusal as the daemon's, exit 1, nothing changed. The
/// kernel's facts are handed to the command as the daemon's tests hand them to a simulated box's clock: the
/// test calls the command with a context whose clock states them (`StatedClock`); `recoverydeck` asks the kernel.
struct CheckinClockGuardTests {
    static let scores = ["--fatigue", "5", "--mood", "6", "--soreness", "4", "--stress", "5", "--sleep", "6"]
    static let sentence = "The clock is not set (not synchronised, and not past the newest stored day)"

    /// `recoverydeck checkin WORDS` at `now` on the database of `cli`, run in this process with `facts` for the
    /// clock guard; the command's error, nil when it filed.
    func checkin(_ cli: RecoveryDeckProcess, now: String, _ words: [String], facts: SystemClock.GuardFacts) throws
        -> CommandError?
    {
        let parsed = try ParsedArguments(
            words, options: CheckinCommand.options + Program.globalOptions, arguments: CheckinCommand.arguments)
        let command = try CheckinCommand(parsed)
        try command.validate()
        let context = Context(
            commandName: CheckinCommand.name, environment: { _ in nil }, databaseOption: cli.databasePath,
            clock: try #require(StatedClock(stating: now, facts: facts)))
        do {
            try command.run(context)
            return nil
        } catch let error as CommandError {
            return error
        }
    }

    @Test("An unsynchronised clock on or before the newest stored day: one sentence, exit 1, the database as it was")
    func refusedUnderUnsetClock() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        // An earlier boot filed 2026-03-11 at 07:00 local (06:00 UTC).
        #expect(try cli.run(["checkin"] + Self.scores, at: "2026-03-11T07:00").status == 0)
        let exportNow = "2026-03-12T10:00"
        let before = try cli.run(["export"], at: exportNow).stdout
        // This boot began at 2026-03-11 07:00 UTC, after that record; the kernel says "not synchronised".
        let unset = SystemClock.GuardFacts(synchronised: false, bootEpochSeconds: 1_773_212_400)
        for now in ["2026-03-10T07:00", "2026-03-11T09:00"] {
            let refused = try checkin(cli, now: now, ["--fatigue", "1"] + Self.scores.dropFirst(2), facts: unset)
            let failure: String? = if case .failure(let sentence)? = refused { sentence } else { nil }
            #expect(failure?.hasPrefix(Self.sentence) == true, "\(now): \(String(describing: refused))")
            #expect(try cli.run(["export"], at: exportNow).stdout == before, "nothing changed (\(now))")
        }
        // A day after the newest stored one is safe to file, and this boot may then replace what it filed.
        #expect(try checkin(cli, now: "2026-03-12T07:00", Self.scores, facts: unset) == nil)
        let again = try checkin(cli, now: "2026-03-12T08:00", ["--fatigue", "2"] + Self.scores.dropFirst(2), facts: unset)
        #expect(again == nil, "\(String(describing: again))")
        let stored = try Store(path: cli.databasePath).questionnaire(on: LocalDate(iso: "2026-03-12")!)
        #expect(stored?.scores[.fatigue].value == 2, "this boot replaced what it filed")
    }
}

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// On a terminal, `checkin` asks for the scores left out (it "prompts for what is missing when on
/// a terminal"); a wrong answer is asked again, and nothing is saved until all five are in.
struct TerminalPromptTests {
    /// Runs `recoverydeck arguments…` at `now` with a pseudo-terminal as standard input, typing `typed` into it.
    func runOnTerminal(_ cli: RecoveryDeckProcess, _ arguments: [String], at now: String, typed: String) throws
        -> RecoveryDeckProcess.Outcome
    {
        // posix_openpt and friends are not visible to Swift's Glibc module; these are their Linux ioctls
        // (asm-generic/ioctls.h): TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        #expect(master >= 0)
        defer { close(master) }
        var unlock: CInt = 0
        var number: CInt = 0
        #expect(ioctl(master, UInt(0x4004_5431), &unlock) == 0)
        #expect(ioctl(master, UInt(0x8004_5430), &number) == 0)
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        #expect(terminal >= 0)
        // Canonical mode delivers one line per read, as a person typing would.
        _ = typed.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
        let outcome = try cli.run(arguments, at: now, stdinDescriptor: terminal)
        close(terminal)
        return outcome
    }

    @Test("missing scores are asked for on a terminal, a wrong answer is asked again, then the check-in is saved")
    func promptsForMissingScores() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let outcome = try runOnTerminal(
            cli, ["checkin", "--fatigue", "5", "--mood", "6"], at: "2026-03-10T07:00", typed: "4\n9\nabc\n5\n6\n")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("soreness (1 very sore … 7 none): "))
        #expect(outcome.stderr.contains("life stress (1 very high … 7 very low): "))
        #expect(outcome.stderr.components(separatedBy: "Please answer with a whole number from 1 to 7.").count == 3)
        #expect(
            outcome.stderr.contains(
                "Saved the check-in for 2026-03-10: fatigue 5, mood 6, soreness 4, life stress 5, sleep quality 6"))
    }

    @Test("end of input at a prompt abandons the check-in: one sentence, exit 1, nothing saved")
    func abandonedAtPrompt() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        // Ctrl-D (EOF) after one answer.
        let outcome = try runOnTerminal(cli, ["checkin"], at: "2026-03-10T07:00", typed: "4\n\u{04}")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasSuffix("recoverydeck checkin: the check-in was abandoned; nothing was saved.\n"))
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath), "not even an empty database")
        let export = try cli.run(["export", "--format", "csv"])
        #expect(export.stdout.split(separator: "\n").count == 1, "only the header: nothing saved")
    }
}

import Foundation
import Testing

/// A bad line quoted back in a message is cut to 80 characters and its control characters escaped, so a crafted
/// file can neither flood the terminal nor drive it with escape sequences.
struct EchoedInputTests {
    @Test("rr analyze on a 100 KB line with a terminal escape: one line, the escape shown as \\u{1b}, cut at 80")
    func badLineIsCutAndEscaped() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let file = cli.directory.appendingPathComponent("rr.txt")
        let line = "\u{1b}]0;owned\u{07}\u{1b}[31m" + String(repeating: "x", count: 100_000)
        try ("812\n790\n" + line + "\n").write(to: file, atomically: true, encoding: .utf8)
        let outcome = try cli.run(["rr", "analyze", file.path])
        #expect(outcome.status == 1)
        #expect(!outcome.stderr.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 })
        #expect(outcome.stderr.contains("\\u{1b}]0;owned\\u{7}\\u{1b}[31m"))
        #expect(outcome.stderr.contains("xxx…'"))
        #expect(outcome.stderr.count < 400, "\(outcome.stderr.count) characters")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }
}

import Foundation
import Testing

/// Tests start programs through TestSupport's `Child`, never Foundation's `Process`: `Process` learns that its
/// child ended from a socket pair whose child end it leaves open across exec, so a program another test starts
/// at the same moment can inherit it, and the wait then lasts as long as that program. The arm64 suite under
/// qemu-user once never ended, and the one test its log showed unfinished was waiting on `recoverydeck` so.
struct ChildStartTests {
    /// What starts a program through Foundation.
    static let patterns = [#"(?<![A-Za-z0-9_])Process\(\)"#, #"\.waitUntilExit\("#, #"(?<![A-Za-z0-9_])Pipe\(\)"#]

    /// The lines of `text` that start or wait for a program through Foundation.
    static func violations(in text: String) -> [String] {
        text.split(separator: "\n").filter { line in
            patterns.contains { line.range(of: $0, options: .regularExpression) != nil }
        }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test("the scanner finds Foundation's Process and Pipe, not names that end in them")
    func scannerFindsProcess() {
        #expect(Self.violations(in: "let p = Process()\nlet cli = try RecoveryDeckProcess()").count == 1)
        #expect(Self.violations(in: "p.waitUntilExit()").count == 1)
        #expect(Self.violations(in: "let out = Pipe()\nlet fresh = ReplacingStrap.makePipe()").count == 1)
    }

    @Test("no test starts a program with Foundation's Process or a Foundation Pipe")
    func testsStartChildren() throws {
        let (scanned, found) = try NoNetworkCodeTests.scan(
            "Tests", include: { $0.pathExtension == "swift" && $0.lastPathComponent != "ChildStartTests.swift" },
            violations: Self.violations(in:))
        #expect(scanned > 100, "the scan found too few test files; is the path right?")
        #expect(found.isEmpty, "tests that start programs through Foundation:\n\(found.joined(separator: "\n"))")
    }
}

import Foundation
import Testing

/// The README is the first thing a newcomer reads: its two set-up-and-go commands must exist, and its
/// generated sections (the panel's lights and sounds, the daemon's configuration keys) must say what the box
/// really does. Regenerate with `Tests/Tools/update-readme` after a change to either.
struct ReadmeTests {
    static let root = NoNetworkCodeTests.repositoryRoot

    static var readme: String {
        get throws { try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8) }
    }

    /// The text between `<!-- name:begin -->` and `<!-- name:end -->`.
    static func section(_ name: String, in text: String) -> String? {
        guard let begin = text.range(of: "<!-- \(name):begin -->\n"),
            let end = text.range(of: "<!-- \(name):end -->", range: begin.upperBound..<text.endIndex)
        else { return nil }
        return String(text[begin.upperBound..<end.lowerBound])
    }

    /// The built daemon beside this test bundle in the build products directory.
    static var daemon: URL {
        get throws {
            var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<3 {
                let candidate = directory.appendingPathComponent("recoverydeckd")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "recoverydeckd (run swift build)"])
        }
    }

    static func daemonOutput(_ argument: String) throws -> String {
        let process = Process()
        process.executableURL = try daemon
        process.arguments = [argument]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    static func trimmed(_ s: String) -> String {
        var s = Substring(s)
        while s.first == "\n" { s = s.dropFirst() }
        while s.last == "\n" { s = s.dropLast() }
        return String(s)
    }

    @Test("the README's two commands exist and are executable: the demo's set-up and Tests/run-all")
    func commandsExist() throws {
        let text = try Self.readme
        #expect(text.contains("    deploy/dev-setup && PATH=/opt/swift/usr/bin:$PATH swift run recoverydeck demo"))
        #expect(text.contains("    Tests/run-all"))
        for script in ["deploy/dev-setup", "Tests/run-all", ".ci/run"] {
            #expect(FileManager.default.isExecutableFile(atPath: Self.root.appendingPathComponent(script).path), "\(script)")
        }
        let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("Tests/run-all"), ".ci/run must call the README's test command")
    }

    @Test("the README's light and sound tables are the daemon's own (recoverydeckd --print-light-table)")
    func lightTableMatches() throws {
        let generated = try Self.daemonOutput("--print-light-table").split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("# ") && !$0.hasPrefix("<!--") }
            .map { $0.hasPrefix("## ") ? "#" + $0 : String($0) }
            .joined(separator: "\n")
        let section = try #require(Self.section("light-table", in: Self.readme), "README has no light-table section")
        #expect(Self.trimmed(section) == Self.trimmed(generated), "run Tests/Tools/update-readme")
        #expect(section.contains("| 2 | `questionnaire_missing` |"), "the gate's code is in the table")
    }

    @Test("the README's configuration table is the daemon's own (recoverydeckd --print-config-table)")
    func configTableMatches() throws {
        let generated = try Self.daemonOutput("--print-config-table")
        let section = try #require(Self.section("config-table", in: Self.readme), "README has no config-table section")
        #expect(Self.trimmed(section) == Self.trimmed(generated), "run Tests/Tools/update-readme")
        #expect(section.contains("| `pin_go` | `17` |"))
    }
}

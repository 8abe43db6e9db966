import Foundation
import Testing

/// The README is the first thing a newcomer reads: its two set-up-and-go commands must exist, it stays short
/// enough to read in ten minutes, and the generated sections of the documents beside it (the panel's lights and
/// sounds in docs/panel.md, the daemon's configuration keys in docs/daemon.md) must say what the box really
/// does. Regenerate with `Tests/Tools/update-readme` after a change to either.
struct ReadmeTests {
    static let root = NoNetworkCodeTests.repositoryRoot

    static var readme: String {
        get throws { try document("README.md") }
    }

    static func document(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text between `<!-- name:begin -->` and `<!-- name:end -->`.
    static func section(_ name: String, in text: String) -> String? {
        guard let begin = text.range(of: "<!-- \(name):begin -->\n"),
            let end = text.range(of: "<!-- \(name):end -->", range: begin.upperBound..<text.endIndex)
        else { return nil }
        return String(text[begin.upperBound..<end.lowerBound])
    }

    /// What the built daemon (`recoverydeckd`, or `recoverydeckd-sim` for the simulation's keys) prints for `argument`.
    static func daemonOutput(_ argument: String, program: String = "recoverydeckd") throws -> String {
        try ShippedDaemonTests.output(of: try ShippedDaemonTests.program(program), [argument])
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
        #expect(text.contains("    deploy/dev-setup && export PATH=/opt/swift/usr/bin:$PATH && swift build && swift run recoverydeck demo"))
        #expect(text.contains("    Tests/run-all"))
        for script in ["deploy/dev-setup", "Tests/run-all", ".ci/run"] {
            #expect(FileManager.default.isExecutableFile(atPath: Self.root.appendingPathComponent(script).path), "\(script)")
        }
        let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("Tests/run-all"), ".ci/run must call the README's test command")
    }

    @Test("the README is at most 250 lines, and every document it links to exists")
    func readmeIsShortAndItsLinksHold() throws {
        let text = try Self.readme
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
        var links: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "]("), let close = rest[open.upperBound...].firstIndex(of: ")") {
            links.append(String(rest[open.upperBound..<close]))
            rest = rest[close...]
        }
        #expect(!links.isEmpty)
        for link in links where !link.hasPrefix("http") {
            let path = String(link.split(separator: "#", maxSplits: 1).first ?? "")
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(link)")
        }
    }

    @Test("docs/panel.md's light and sound tables are the daemon's own (recoverydeckd --print-light-table)")
    func lightTableMatches() throws {
        let generated = try Self.daemonOutput("--print-light-table").split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("# ") && !$0.hasPrefix("<!--") }
            .joined(separator: "\n")
        let section = try #require(
            Self.section("light-table", in: try Self.document("docs/panel.md")), "docs/panel.md has no light-table section")
        #expect(Self.trimmed(section) == Self.trimmed(generated), "run Tests/Tools/update-readme")
        #expect(section.contains("| 2 | `questionnaire_missing` |"), "the gate's code is in the table")
    }

    @Test("docs/daemon.md's configuration table is the daemon's own (recoverydeckd --print-config-table)")
    func configTableMatches() throws {
        let generated = try Self.daemonOutput("--print-config-table")
        let section = try #require(
            Self.section("config-table", in: try Self.document("docs/daemon.md")), "docs/daemon.md has no config-table section")
        #expect(Self.trimmed(section) == Self.trimmed(generated), "run Tests/Tools/update-readme")
        #expect(section.contains("| `pin_go` | `17` |"))
        #expect(!section.contains("`speed`"), "the simulation's keys are not the box's configuration")
    }

    @Test("docs/daemon.md's simulation table is the simulated box's own (recoverydeckd-sim --print-simulation-table)")
    func simulationTableMatches() throws {
        let generated = try Self.daemonOutput("--print-simulation-table", program: "recoverydeckd-sim")
        let section = try #require(
            Self.section("simulation-table", in: try Self.document("docs/daemon.md")),
            "docs/daemon.md has no simulation-table section")
        #expect(Self.trimmed(section) == Self.trimmed(generated), "run Tests/Tools/update-readme")
        #expect(section.contains("| `speed` | `1` |"))
    }
}

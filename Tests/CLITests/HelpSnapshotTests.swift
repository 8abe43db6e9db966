import Foundation
import Testing

/// Every command's `--help` is compared with its committed snapshot, so a change to a command's
/// options or wording is seen in review. A new command needs a snapshot (see Registry.swift).
struct HelpSnapshotTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("HelpSnapshots")

    /// The command names listed under COMMANDS in `recoverydeck --help`.
    static func commandNames(_ overview: String) -> [String] {
        var names: [String] = []
        var inCommands = false
        for line in overview.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "COMMANDS:" {
                inCommands = true
                continue
            }
            if inCommands {
                guard line.hasPrefix("  ") else { break }
                if line.hasPrefix("   ") { continue }  // a wrapped summary
                let columns = line.dropFirst(2).components(separatedBy: "  ")
                names.append(columns[0].trimmingCharacters(in: .whitespaces))
            }
        }
        return names
    }

    func expectSnapshot(_ name: String, _ actual: String) throws {
        let file = Self.snapshots.appendingPathComponent(name + ".txt")
        let expected = try? String(contentsOf: file, encoding: .utf8)
        #expect(
            expected == actual,
            "help for \(name) differs from \(file.path); if the change is intended, replace the file with:\n\(actual)")
    }

    @Test("recoverydeck --help lists the commands and matches its snapshot; exit 0, stdout only")
    func overview() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let outcome = try cli.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
        #expect(Self.commandNames(outcome.stdout).contains("checkin"))
        try expectSnapshot("recoverydeck", outcome.stdout)
    }

    @Test("every command's --help matches its snapshot, on stdout with exit 0")
    func everyCommand() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let names = Self.commandNames(try cli.run(["--help"]).stdout)
        #expect(names.count >= 1)
        for name in names {
            let outcome = try cli.run(name.split(separator: " ").map(String.init) + ["--help"])
            #expect(outcome.status == 0, "\(name) --help exited \(outcome.status)")
            #expect(outcome.stderr.isEmpty, "\(name) --help wrote to stderr: \(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("USAGE: recoverydeck \(name)"))
            #expect(
                outcome.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 },
                "\(name) --help has a line over 100 columns")
            try expectSnapshot(name.replacingOccurrences(of: " ", with: "-"), outcome.stdout)
        }
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath), "--help must not create the database")
    }
}

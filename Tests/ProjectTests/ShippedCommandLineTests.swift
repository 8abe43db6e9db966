import Foundation
import TestSupport
import Testing

/// The shipped `recoverydeck` holds no switch for a test: no option that states the time and no environment
/// variable that changes what a command does. Tests that need either run `recoverydeck-fixture`, the same
/// program given a stated clock (or no strap parameters to load), which links the `RecoveryDeckCommandsTesting`
/// module that the shipped binary does not.
struct ShippedCommandLineTests {
    /// What a run of the program at `path` said: its exit status, standard output and standard error.
    static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shipped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let err = directory.appendingPathComponent("err")
        let child = try Child(
            path, arguments, environment: environment, stdin: .null, stdout: .file(out.path), stderr: .file(err.path))
        return (
            try child.terminationStatus, try String(contentsOf: out, encoding: .utf8),
            try String(contentsOf: err, encoding: .utf8)
        )
    }

    /// An environment naming a database file that does not exist in `directory`, so no command finds one elsewhere.
    static func environment(_ directory: URL) -> [String: String] {
        [
            "PATH": "/usr/bin:/bin", "TZ": "Europe/Stockholm", "LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no",
            "RECOVERYDECK_DB": directory.appendingPathComponent("recoverydeck.db").path,
        ]
    }

    @Test("recoverydeck refuses --now before or after the command's name as an unknown option; the fixture takes it")
    func nowIsUnknown() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let shipped = try ShippedDaemonTests.program("recoverydeck")
        for words in [["--now=2026-03-10T07:00", "history"], ["history", "--now", "2026-03-10T07:00"]] {
            let refused = try Self.run(shipped, words, environment: Self.environment(directory))
            #expect(refused.status == 64, "\(words): \(refused.stderr)")
            #expect(
                refused.stderr
                    == "recoverydeck history: unknown option '--now'.\nTry 'recoverydeck history --help'.\n",
                "\(words)")
            #expect(refused.stdout.isEmpty)
        }
        // The check can fail: the fixture, built from the same code, files the check-in on the stated day.
        let fixture = try ShippedDaemonTests.program("recoverydeck-fixture")
        let scores = ["--fatigue", "5", "--mood", "6", "--soreness", "4", "--stress", "5", "--sleep", "6"]
        let stated = try Self.run(
            fixture, ["--now", "2026-03-10T07:00", "checkin"] + scores, environment: Self.environment(directory))
        #expect(stated.status == 0, "\(stated.stderr)")
        #expect(stated.stderr.contains("Saved the check-in for 2026-03-10:"), "\(stated.stderr)")
    }

    @Test("recoverydeck names no test variable (RECOVERYDECK_TEST_…) and holds none of RecoveryDeckCommandsTesting")
    func noTestSwitchInTheBinary() throws {
        let marker = Data("RECOVERYDECK_TEST".utf8)
        let shipped = try ShippedDaemonTests.program("recoverydeck")
        let shippedBytes = try Data(contentsOf: URL(fileURLWithPath: shipped))
        #expect(shippedBytes.count > 1_000_000, "too small to be the program: \(shippedBytes.count) bytes")
        #expect(shippedBytes.range(of: marker) == nil, "recoverydeck names a test variable")
        // The check can fail: this test's own binary holds the marker, in the literal above.
        let ownBytes = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
        #expect(ownBytes.range(of: marker) != nil)

        let isTesting = { (symbol: Substring) in symbol.contains("27RecoveryDeckCommandsTesting") }
        let symbols = try ShippedDaemonTests.symbols(shipped)
        #expect(symbols.count > 1000, "nm listed too few symbols to judge: \(symbols.count)")
        #expect(!symbols.contains(where: isTesting), "recoverydeck holds RecoveryDeckCommandsTesting")
        let fixture = try ShippedDaemonTests.symbols(try ShippedDaemonTests.program("recoverydeck-fixture"))
        #expect(fixture.contains(where: isTesting))
    }
}

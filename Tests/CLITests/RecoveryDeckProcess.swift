import Foundation
import TestSupport
import Testing

/// Runs the built `recoverydeck` binary as a person would, in a fresh temporary directory with a
/// controlled environment (no inherited database path, HOME and XDG_DATA_HOME inside the directory,
/// a fixed time zone); at a stated local time, `recoverydeck-fixture`, the same program on a stated clock.
struct RecoveryDeckProcess {
    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    let directory: URL
    var environment: [String: String]

    /// The database the commands use unless a test passes `--db`.
    var databasePath: String { directory.appendingPathComponent("recoverydeck.db").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "recoverydeck-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        environment = [
            "PATH": "/usr/bin:/bin",
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_DATA_HOME": directory.appendingPathComponent("xdg").path,
            "TZ": "Europe/Stockholm",
            "LANG": "C.UTF-8",
            // On 16 KiB pages (a Pi 5) the Swift runtime warns on stderr that its backtracer is off, which
            // would break every test that compares stderr; no test wants the backtracer.
            "SWIFT_BACKTRACE": "enable=no",
        ]
        environment["RECOVERYDECK_DB"] = databasePath
    }

    /// The shipped `recoverydeck` executable beside the test bundle in the build products directory.
    static var executable: URL { get throws { try product("recoverydeck") } }

    /// `recoverydeck-fixture`, which takes `--now YYYY-MM-DDTHH:MM` before the command's words.
    static var fixture: URL { get throws { try product("recoverydeck-fixture") } }

    /// The executable `name` in the build products directory.
    static func product(_ name: String) throws -> URL {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        // The runner may live inside the .xctest bundle directory.
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw BinaryMissing(name: name)
    }

    struct BinaryMissing: Error, CustomStringConvertible {
        let name: String
        var description: String {
            "the \(name) binary is not in the build products; run `swift build --build-tests`"
        }
    }

    /// Runs `recoverydeck arguments…` with `input` on standard input (empty and not a terminal by default);
    /// given `now` (YYYY-MM-DDTHH:MM, local), `recoverydeck-fixture --now NOW arguments…`.
    @discardableResult
    func run(_ arguments: [String], at now: String? = nil, input: String = "", stdinDescriptor: Int32? = nil) throws
        -> Outcome
    {
        let executable = try now == nil ? Self.executable : Self.fixture
        // Output goes to files, not pipes, so a large export can never fill a pipe and stall the child.
        let outFile = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errFile = directory.appendingPathComponent("stderr-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: outFile)
            try? FileManager.default.removeItem(at: errFile)
        }
        let child = try Child(
            executable.path, now.map { ["--now", $0] + arguments } ?? arguments, environment: environment,
            directory: directory.path, stdin: stdinDescriptor.map { .descriptor($0) } ?? .pipe,
            stdout: .file(outFile.path), stderr: .file(errFile.path))
        if let pipe = child.input {
            pipe.write(Data(input.utf8))
            try pipe.close()
        }
        return Outcome(
            status: try child.terminationStatus, stdout: try String(contentsOf: outFile, encoding: .utf8),
            stderr: try String(contentsOf: errFile, encoding: .utf8))
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

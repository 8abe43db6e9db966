import Foundation
import Testing

/// A crash of the CLI must not leave the person's data on disk in a core dump.
struct CoreDumpTests {
    @Test("a running recoverydeck has a core size limit of 0 (soft and hard) and is not dumpable")
    func noCoreDumps() throws {
        // The file to analyze is a named pipe: the process opens it in the command, after main has set the limit,
        // and then waits reading it, so it is alive and past that point exactly when the test's open returns.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("rd-core-\(getpid()).fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let process = Process()
        process.executableURL = try RecoveryDeckProcess.executable
        process.arguments = ["rr", "analyze", fifo]
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Should the process end without opening the pipe, a reader opened here lets the test's open return.
        process.terminationHandler = { _ in
            let unblock = open(fifo, O_RDONLY | O_NONBLOCK)
            if unblock >= 0 { close(unblock) }
        }
        try process.run()
        let writer = open(fifo, O_WRONLY)
        defer {
            if writer >= 0 { close(writer) }
            process.waitUntilExit()
        }
        #expect(writer >= 0 && process.isRunning, "recoverydeck rr analyze ended before it opened its file")
        let pid = process.processIdentifier
        let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
        let coreLine = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }.map(String.init) ?? ""
        var dumpable = ""
        let words = coreLine.split(separator: " ")
        #expect(words.count >= 6 && words[4] == "0" && words[5] == "0", "core limit: \(coreLine)")
        // A non-dumpable process's /proc files belong to root (proc(5), PR_SET_DUMPABLE); as another user the
        // owner would differ, and as root the limit above is what tells.
        var info = stat()
        if getuid() != 0, stat("/proc/\(pid)/status", &info) == 0 { dumpable = info.st_uid == 0 ? "no" : "yes" }
        #expect(dumpable != "yes")
    }
}

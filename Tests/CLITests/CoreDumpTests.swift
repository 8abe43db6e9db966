import Foundation
import TestSupport
import Testing

/// A crash of the CLI must not leave the person's data on disk in a core dump.
struct CoreDumpTests {
    @Test("a running recoverydeck has a core size limit of 0 (soft and hard) and is not dumpable")
    func noCoreDumps() throws {
        // The file to analyze is a named pipe: the process opens it in the command, after main has set the limit,
        // and then waits reading it, so it is alive and past that point once the test's open succeeds.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("rd-core-\(getpid()).fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let process = try Child(
            try RecoveryDeckProcess.executable.path, ["rr", "analyze", fifo],
            environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no"],
            stdin: .null, stdout: .null, stderr: .null)
        // A writer's open that does not wait (fifo(7)) fails with ENXIO until a reader has the pipe open: tried
        // until the process has it open, unless the process ends first (or within Child.patience).
        var writer: Int32 = -1
        let deadline = Date(timeIntervalSinceNow: Child.patience)
        while writer < 0, process.isRunning, Date() < deadline {
            writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer < 0 { usleep(2_000) }
        }
        defer {
            if writer >= 0 { close(writer) }
            _ = try? process.wait()
        }
        #expect(writer >= 0 && process.isRunning, "recoverydeck rr analyze ended before it opened its file")
        let pid = process.pid
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

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
            stdin: .null, stdout: .null, stderr: .pipe)
        // A writer's open waits until a reader has the pipe open (fifo(7)): recoverydeck, or the release when
        // recoverydeck ended first (its standard error's end) or Child.patience passed.
        let release = FIFORelease(fifo, childEnd: process.errors!.fileDescriptor, patience: Child.patience)
        let writer = open(fifo, O_WRONLY)
        let released = release.writerOpened()
        defer {
            if writer >= 0 { close(writer) }
            _ = try? process.wait()
            release.finish()
        }
        #expect(
            writer >= 0 && !released && process.isRunning, "recoverydeck rr analyze ended before it opened its file")
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

/// Opens a FIFO for reading, so that a writer's blocking open of it returns, when a child's pipe `childEnd` is
/// readable (the child ended, or wrote an error) or `patience` passes before the writer's open has returned.
/// A thread of its own blocks in poll(2) on the pipe: nothing sleeps.
final class FIFORelease: @unchecked Sendable {
    private let lock = NSLock()
    private var opened = false
    private var released = false
    private var reader: Int32 = -1
    private let done = DispatchSemaphore(value: 0)

    init(_ fifo: String, childEnd: Int32, patience: Double) {
        Thread { [self] in
            var end = pollfd(fd: childEnd, events: Int16(POLLIN), revents: 0)
            _ = poll(&end, 1, Int32(patience * 1000))
            lock.lock()
            if !opened {
                released = true
                reader = open(fifo, O_RDONLY | O_NONBLOCK)
            }
            lock.unlock()
            done.signal()
        }.start()
    }

    /// Called once the writer's open has returned: whether the release had to open the FIFO first.
    func writerOpened() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        opened = true
        return released
    }

    /// Waits for the thread (the child's pipe ends with the child) and closes what it opened.
    func finish() {
        done.wait()
        if reader >= 0 { close(reader) }
    }
}

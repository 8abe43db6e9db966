import Platform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileDescriptor.readContents: one whole-file reader with a limit and one-sentence errors")
struct FileReadingTests {
    @Test("A file across several chunks comes back byte for byte; an empty file is empty, not an error")
    func wholeAndEmpty() throws {
        let dir = try TemporaryFolder()
        defer { dir.remove() }
        let bytes = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }  // more than two 64 KiB chunks
        try dir.write(bytes, to: "big")
        #expect(try FileDescriptor.readContents(atPath: dir.path + "/big", limit: 150_000) == bytes)
        try dir.write([], to: "empty")
        #expect(try FileDescriptor.readContents(atPath: dir.path + "/empty", limit: 10) == [])
        #expect(try FileDescriptor.readContents(atPath: dir.path + "/empty", limit: 0) == [])
    }

    @Test("The limit is inclusive: exactly `limit` bytes are read, one more is refused in one sentence")
    func limit() throws {
        let dir = try TemporaryFolder()
        defer { dir.remove() }
        try dir.write(Array(repeating: 65, count: 2048), to: "two-kib")
        let path = dir.path + "/two-kib"
        #expect(try FileDescriptor.readContents(atPath: path, limit: 2048).count == 2048)
        #expect(throws: FileReadError(path: path, reason: .tooLarge(limit: 2047))) {
            try FileDescriptor.readContents(atPath: path, limit: 2047)
        }
        #expect(
            FileReadError(path: path, reason: .tooLarge(limit: 1024)).description == "\(path) is larger than 1 KiB.")
        #expect(FileReadError(path: "x", reason: .tooLarge(limit: 32 << 20)).description == "x is larger than 32 MiB.")
        #expect(FileReadError(path: "x", reason: .tooLarge(limit: 1000)).description == "x is larger than 1000 bytes.")
    }

    @Test("A missing file and a folder are refused with the path and the system's reason")
    func missingAndFolder() throws {
        let dir = try TemporaryFolder()
        defer { dir.remove() }
        let missing = dir.path + "/no-such-file"
        #expect(throws: FileReadError(path: missing, reason: .system(.noEntry))) {
            try FileDescriptor.readContents(atPath: missing, limit: 100)
        }
        #expect(
            FileReadError(path: missing, reason: .system(.noEntry)).description
                == "cannot read \(missing): No such file or directory.")
        #expect(throws: FileReadError(path: dir.path, reason: .system(Errno(rawValue: EISDIR)))) {
            try FileDescriptor.readContents(atPath: dir.path, limit: 100)
        }
    }

    @Test("A /proc file and a pipe, whose size reads 0, are read to their end")
    func sizeZeroFiles() throws {
        var info = stat()
        #expect(stat("/proc/self/status", &info) == 0 && info.st_size == 0, "the premise: /proc reports size 0")
        let status = String(
            decoding: try FileDescriptor.readContents(atPath: "/proc/self/status", limit: 1 << 20), as: UTF8.self)
        #expect(status.hasPrefix("Name:"))
        #expect(status.contains("\nPid:\t\(getpid())\n"))

        var fds: [CInt] = [-1, -1]
        try #require(pipe(&fds) == 0)
        let message = Array("three lines\nof text\nin a pipe\n".utf8)
        #expect(message.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == message.count)
        close(fds[1])
        let reader = FileDescriptor(rawValue: fds[0])
        defer { reader.close() }
        #expect(try reader.readToEnd(limit: 100, name: "the pipe") == message)
    }

    @Test("A read interrupted by signals (a handler without SA_RESTART) is retried and returns every byte")
    func interruptedRead() throws {
        var fds: [CInt] = [-1, -1]
        try #require(pipe(&fds) == 0)
        let handled = signalHandled  // made before the handler can run: a signal handler must not initialise it
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in sem_post(signalHandled) }  // sem_post is async-signal-safe
        action.sa_flags = 0  // no SA_RESTART: a blocked read returns EINTR
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        try #require(sigaction(SIGUSR1, &action, &previous) == 0)
        defer { sigaction(SIGUSR1, &previous, nil) }
        // The test runner's threads block most signals; this one must take SIGUSR1 for the read to see EINTR.
        var usr1 = sigset_t()
        sigemptyset(&usr1)
        sigaddset(&usr1, SIGUSR1)
        var previousMask = sigset_t()
        try #require(pthread_sigmask(SIG_UNBLOCK, &usr1, &previousMask) == 0)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }

        // Another thread interrupts this one's read 50 times, then writes and closes the pipe. Each signal is
        // sent only once the kernel shows this thread asleep in read(2) on the pipe, and the next only after
        // the handler has run, so every signal interrupts a read call: no pacing by time.
        let context = UnsafeMutablePointer<Interruption>.allocate(capacity: 1)
        let task = try #require(thisThreadsProcFolder())
        context.initialize(
            to: Interruption(thread: pthread_self(), task: task, readEnd: fds[0], writeEnd: fds[1], handled: handled))
        defer { context.deinitialize(count: 1).deallocate() }
        try #require(sem_init(context.pointee.finished, 0, 0) == 0)
        defer {
            sem_destroy(context.pointee.finished)
            context.pointee.finished.deallocate()
        }
        var interrupter = pthread_t()
        let started = pthread_create(
            &interrupter, nil,
            { raw in
                let context = raw!.assumingMemoryBound(to: Interruption.self)
                let c = context.pointee
                for _ in 0..<50 {
                    guard c.waitUntilReaderSleepsInRead() else { break }  // the read gave up: stop, let it fail
                    pthread_kill(c.thread, SIGUSR1)
                    guard c.waitForHandler() else { break }  // delivered, so the next read we see is a retry
                    context.pointee.interruptions += 1
                }
                _ = "done".withCString { write(c.writeEnd, $0, 4) }
                close(c.writeEnd)
                return nil
            }, context)
        try #require(started == 0)
        let reader = FileDescriptor(rawValue: fds[0])
        defer { reader.close() }
        let result = Result { () throws(FileReadError) -> [UInt8] in
            try reader.readToEnd(limit: 100, name: "the pipe")
        }
        sem_post(context.pointee.finished)
        pthread_join(interrupter, nil)
        #expect(context.pointee.interruptions == 50, "every signal interrupted a blocked read")
        #expect(try result.get() == Array("done".utf8))
    }
}

/// Posted by the SIGUSR1 handler of `interruptedRead`.
nonisolated(unsafe) private let signalHandled: UnsafeMutablePointer<sem_t> = {
    let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    sem_init(semaphore, 0, 0)
    return semaphore
}()

/// read(2)'s number: asm/unistd_64.h on x86_64, asm-generic/unistd.h on arm64.
#if arch(x86_64)
    private let readSyscallNumber = 0
#elseif arch(arm64)
    private let readSyscallNumber = 63
#endif

/// "/proc/PID/task/TID" of the calling thread, from the /proc/thread-self link (proc(5)).
private func thisThreadsProcFolder() -> String? {
    var link = [CChar](repeating: 0, count: 64)
    let n = readlink("/proc/thread-self", &link, link.count - 1)
    guard n > 0 else { return nil }
    return "/proc/" + String(decoding: link[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// What the interrupting thread of `interruptedRead` knows about the reading one.
private struct Interruption {
    let thread: pthread_t
    /// "/proc/PID/task/TID" of the reading thread.
    let task: String
    let readEnd: CInt
    let writeEnd: CInt
    let handled: UnsafeMutablePointer<sem_t>
    /// Posted by the reader when its read returned, so the interrupter never waits for a read that will not come.
    let finished = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    var interruptions = 0

    /// True once the reader sleeps in read(2) on `readEnd` (proc(5) /proc/PID/task/TID/syscall: the call's
    /// number and arguments while the thread is blocked, "running" otherwise); false if its read returned.
    func waitUntilReaderSleepsInRead() -> Bool {
        let path = task + "/syscall"
        let expected = "\(readSyscallNumber) 0x\(String(readEnd, radix: 16)) "
        while sem_trywait(finished) != 0 {
            if let text = try? FileDescriptor.readContents(atPath: path, limit: 4096),
                String(decoding: text, as: UTF8.self).hasPrefix(expected)
            {
                return true
            }
            sched_yield()
        }
        sem_post(finished)  // leave it posted for the next look
        return false
    }

    /// True once the handler has run. The 10 s bound only turns a lost signal into a failure instead of a hang.
    func waitForHandler() -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += 10
        while sem_timedwait(handled, &deadline) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }
}

/// A fresh folder under /tmp, removed with everything in it.
struct TemporaryFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/recoverydeck-read-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Errno.current
        }
        path = String(cString: made)
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        let fd = open(path + "/" + name, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Errno.current }
        defer { close(fd) }
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Errno.current
        }
    }

    func remove() {
        for name in (try? DirectoryEntries.names(in: path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }
}

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
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0  // no SA_RESTART: a blocked read returns EINTR
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        try #require(sigaction(SIGUSR1, &action, &previous) == 0)
        defer { sigaction(SIGUSR1, &previous, nil) }

        // Another thread interrupts this one's blocked read 50 times, then writes and closes the pipe.
        let context = UnsafeMutablePointer<(pthread_t, CInt)>.allocate(capacity: 1)
        context.initialize(to: (pthread_self(), fds[1]))
        defer { context.deallocate() }
        var interrupter = pthread_t()
        let started = pthread_create(
            &interrupter, nil,
            { raw in
                let (reader, writeEnd) = raw!.assumingMemoryBound(to: (pthread_t, CInt).self).pointee
                for _ in 0..<50 {
                    pthread_kill(reader, SIGUSR1)
                    usleep(1000)
                }
                _ = "done".withCString { write(writeEnd, $0, 4) }
                close(writeEnd)
                return nil
            }, context)
        try #require(started == 0)
        let reader = FileDescriptor(rawValue: fds[0])
        defer { reader.close() }
        let result = Result { () throws(FileReadError) -> [UInt8] in
            try reader.readToEnd(limit: 100, name: "the pipe")
        }
        pthread_join(interrupter, nil)
        #expect(try result.get() == Array("done".utf8))
    }
}

/// A fresh folder under /tmp, removed with everything in it.
private struct TemporaryFolder {
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
        guard let dir = opendir(path) else { return }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
        rmdir(path)
    }
}

import Platform
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The child half of the interruption test: enabled only in the child process the parent starts. It replaces
/// the file named in the environment again and again, each time whole with one letter, until it is killed.
@Test(
    "Atomic writer (runs only in the child of the interruption test)",
    .enabled(if: getenv("RECOVERYDECK_ATOMIC_WRITER") != nil))
func atomicWriterInChildProcess() throws {
    let path = String(cString: getenv("RECOVERYDECK_ATOMIC_WRITER"))
    for round in 0..<100_000 {
        let letter = UInt8(ascii: "A") + UInt8(round % 26)
        try FileDescriptor.writeAtomically(
            [UInt8](repeating: letter, count: AtomicWriteInterruptionTests.size), to: path,
            temporary: path + ".partial-\(getpid())", permissions: .ownerReadWrite)
    }
}

@Suite("writeAtomically under a crash: a process killed at any moment of its write leaves the old file or the new")
struct AtomicWriteInterruptionTests {
    static let size = 1 << 20

    /// Nil when the file is one letter `size` times; else what is wrong with it.
    static func wholeness(_ path: String) -> String? {
        guard let bytes = try? FileDescriptor.readContents(atPath: path, limit: size + 1) else { return "unreadable" }
        guard bytes.count == size else { return "\(bytes.count) bytes, not \(size)" }
        guard let first = bytes.first, bytes.allSatisfy({ $0 == first }) else { return "two writes mixed" }
        return nil
    }

    /// Waits (poll, up to 60 s) for the next rename onto `name` that the inotify descriptor `watch` reports;
    /// false when none came.
    static func nextReplacement(_ watch: CInt, of name: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var ready = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 60_000) == 1 else { return false }
            let count = read(watch, &buffer, buffer.count)
            guard count > 0 else { return false }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let length = buffer.withUnsafeBytes { raw in
                    Int(raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len)
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let named = String(decoding: buffer[nameStart..<(nameStart + length)].prefix { $0 != 0 }, as: UTF8.self)
                if named == name { return true }
                offset = nameStart + length
            }
        }
    }

    // The child is this test binary filtered to the writer above. Each round waits (inotify, no sleeping) for a
    // seeded number of the child's replacements, reads the file while it goes on writing, then kills it (SIGKILL:
    // no handler, no clean-up) after a seeded number of further reads, so the kill lands in the write, the flush,
    // the rename or the directory flush of the replacement under way. A power cut is not produced here: the
    // directory flush's part (the rename reaching the disk) is not observable in a test.
    @Test("After SIGKILL at a seeded moment in a stream of replacements the file is whole; readers never see part")
    func killedWriterLeavesWholeFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/record"
        try FileDescriptor.writeAtomically(
            [UInt8](repeating: UInt8(ascii: "a"), count: Self.size), to: path, temporary: path + ".first",
            permissions: .ownerReadWrite)
        let watch = inotify_init1(CInt(IN_CLOEXEC))
        try #require(watch >= 0, "inotify_init1: errno \(errno)")
        defer { close(watch) }
        try #require(inotify_add_watch(watch, dir.path, UInt32(IN_MOVED_TO)) >= 0, "inotify_add_watch: errno \(errno)")
        let binary = try ChildProcess.testBinary()
        let arguments = [binary, "--testing-library", "swift-testing", "--filter", "atomicWriterInChildProcess"]
        var seed: UInt64 = 0x34F5
        for round in 0..<3 {
            let pid = try ChildProcess.spawn(
                binary, arguments, ["PATH=/usr/bin:/bin", "RECOVERYDECK_ATOMIC_WRITER=\(path)"])
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let replacements = 1 + Int((seed >> 33) % 3)
            var replaced = 0
            while replaced < replacements, Self.nextReplacement(watch, of: "record") { replaced += 1 }
            #expect(replaced == replacements, "round \(round): the child replaced the file \(replaced) times in 60 s")
            for _ in 0..<5 { #expect(Self.wholeness(path) == nil, "round \(round): a reader saw a partial file") }
            for _ in 0..<Int((seed >> 40) % 8) { _ = Self.wholeness(path) }
            kill(pid, SIGKILL)
            let status = ChildProcess.wait(pid)
            #expect(status & 0x7f == SIGKILL, "round \(round): the child ended before it was killed")
            #expect(Self.wholeness(path) == nil, "round \(round): after the kill")
            unlink(path + ".partial-\(pid)")
        }
    }
}

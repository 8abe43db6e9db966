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

    static func inode(_ path: String) -> ino_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_ino : nil
    }

    // The child is this test binary filtered to the writer above. Each round waits for the child's first
    // replacement, reads the file while it goes on writing, then kills it (SIGKILL: no handler, no clean-up) at a
    // seeded moment, so the kill lands in the write, the flush, the rename or the directory flush. A power cut
    // is not produced here: the directory flush's part (the rename reaching the disk) is not observable in a test.
    @Test("After SIGKILL at a seeded moment in a stream of replacements the file is whole; readers never see part")
    func killedWriterLeavesWholeFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/record"
        try FileDescriptor.writeAtomically(
            [UInt8](repeating: UInt8(ascii: "a"), count: Self.size), to: path, temporary: path + ".first",
            permissions: .ownerReadWrite)
        let binary = try ChildProcess.testBinary()
        let arguments = [binary, "--testing-library", "swift-testing", "--filter", "atomicWriterInChildProcess"]
        var seed: UInt64 = 0x34F5
        for round in 0..<3 {
            let before = Self.inode(path)
            let pid = try ChildProcess.spawn(
                binary, arguments, ["PATH=/usr/bin:/bin", "RECOVERYDECK_ATOMIC_WRITER=\(path)"])
            var waited = 0
            while Self.inode(path) == before, waited < 60_000 {
                usleep(1_000)
                waited += 1
            }
            #expect(Self.inode(path) != before, "round \(round): the child replaced nothing in 60 s")
            for _ in 0..<5 { #expect(Self.wholeness(path) == nil, "round \(round): a reader saw a partial file") }
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            usleep(useconds_t((seed >> 33) % 20_000))
            kill(pid, SIGKILL)
            let status = ChildProcess.wait(pid)
            #expect(status & 0x7f == SIGKILL, "round \(round): the child ended before it was killed")
            #expect(Self.wholeness(path) == nil, "round \(round): after the kill")
            unlink(path + ".partial-\(pid)")
        }
    }
}

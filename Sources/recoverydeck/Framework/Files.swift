import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// Whole-file reads and writes for commands, through libc (no Foundation), each failure one sentence.
enum Files {
    /// Inputs larger than this are refused: three years of the box's own full export with every raw RR is
    /// about 15 MiB. (A restore still holds about ten times its file in memory while it parses.)
    static let maximumBytes = 32 << 20

    /// An RR file larger than this is refused: a whole day and night of RR intervals (about 100,000 beats) is
    /// about 500 KiB, a morning a few KiB, and the analysis holds some 16 times the file's size (a 2 MiB file
    /// peaks under 64 MB: Tests/Benchmarks/InputMemory/run.sh).
    static let maximumRRFileBytes = 2 << 20

    /// The bytes of `path`, or of standard input for `-`. A file the person named is opened with their own
    /// rights, also when root acts as the box's owner.
    static func read(_ path: String, limit: Int = maximumBytes) throws(CommandError) -> [UInt8] {
        try ProcessIdentity.asInvoker { () throws(CommandError) -> [UInt8] in try readAsIs(path, limit: limit) }
    }

    private static func readAsIs(_ path: String, limit: Int) throws(CommandError) -> [UInt8] {
        do {
            if path == "-" {
                return try FileDescriptor.standardInput.readToEnd(limit: limit, name: "standard input")
            }
            return try FileDescriptor.readContents(atPath: path, limit: limit)
        } catch {
            throw .failure(error.description)
        }
    }

    /// Writes `text` to `path` with mode 0600 (the data is personal), atomically: a reader sees the old
    /// file or the whole new one, never half. The temporary beside it is created new (`O_EXCL`), never
    /// through a link, and with the rights of the person who ran the command.
    static func writeAtomically(_ text: String, to path: String) throws(CommandError) {
        try ProcessIdentity.asInvoker { () throws(CommandError) in try writeAtomicallyAsIs(text, to: path) }
    }

    private static func writeAtomicallyAsIs(_ text: String, to path: String) throws(CommandError) {
        let temporary = path + ".partial-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failure("cannot write \(path): \(String(cString: strerror(errno))).") }
        var bytes = Array(text.utf8)
        var offset = 0
        var failure: Int32 = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            offset += n
        }
        bytes.removeAll()
        if failure == 0, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .failure("cannot write \(path): \(String(cString: strerror(failure))).")
        }
    }
}

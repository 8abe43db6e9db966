import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// Whole-file reads and writes for commands, through libc (no Foundation), each failure one sentence.
enum Files {
    /// A restore document larger than this is refused: three years of the box's own full export with every raw
    /// RR is about 15 MiB, so a century of mornings fits. Memory does not follow the file (the restore reads it
    /// one element at a time, `ExportDocumentReader`); the bound is on the time and the disk the write-ahead log
    /// takes while the restore runs.
    static let maximumRestoreBytes = 1 << 30

    /// An open file to read in chunks, or standard input for `-`. A file the person named is opened with their
    /// own rights, also when root acts as the box's owner. The caller closes it.
    static func openForReading(_ path: String) throws(CommandError) -> FileDescriptor {
        if path == "-" { return .standardInput }
        return try ProcessIdentity.asInvoker { () throws(CommandError) -> FileDescriptor in
            do throws(Errno) { return try FileDescriptor.open(path, .readOnly) } catch {
                throw .failure(FileReadError(path: path, reason: .system(error)).description)
            }
        }
    }

    /// Reads `fd` `chunkSize` bytes at a time, retrying `EINTR`; each call fills and returns `buffer`'s first
    /// bytes (empty at the end of the file). More than `limit` bytes in all is refused.
    struct Chunks {
        let fd: FileDescriptor
        let name: String
        let limit: Int
        private(set) var total = 0
        private var buffer: [UInt8]

        init(_ fd: FileDescriptor, name: String, limit: Int, chunkSize: Int = 65_536) {
            self.fd = fd
            self.name = name
            self.limit = limit
            buffer = [UInt8](repeating: 0, count: chunkSize)
        }

        /// The next bytes, or nil at the end of the file.
        mutating func next() throws(FileReadError) -> ArraySlice<UInt8>? {
            let descriptor = fd
            let result = buffer.withUnsafeMutableBytes { b in
                Result { () throws(Errno) -> Int in try descriptor.read(into: b) }
            }
            let n: Int
            do { n = try result.get() } catch { throw FileReadError(path: name, reason: .system(error)) }
            if n == 0 { return nil }
            total += n
            guard total <= limit else { throw FileReadError(path: name, reason: .tooLarge(limit: limit)) }
            return buffer[0..<n]
        }
    }

    /// Writes `text` to `path` with mode 0600 (the data is personal), crash-safe: a reader sees the old file or
    /// the whole new one, never half, also after a power cut (`FileDescriptor.writeAtomically`). The temporary
    /// beside it is created new, never through a link, and with the rights of the person who ran the command.
    static func writeAtomically(_ text: String, to path: String) throws(CommandError) {
        try ProcessIdentity.asInvoker { () throws(CommandError) in
            sweepPartials(of: path)
            do throws(FileWriteError) {
                try FileDescriptor.writeAtomically(
                    Array(text.utf8), to: path, temporary: path + ".partial-\(getpid())", permissions: .ownerReadWrite)
            } catch {
                throw .failure("cannot write \(path): \(error.errno.message).")
            }
        }
    }

    /// Removes what an earlier write of `path` left when its process was killed before the rename: a
    /// `NAME.partial-PID` beside it whose process is gone, a regular file of the person running this command
    /// (it holds their data, 0600, and nothing else would ever remove it). A live process's temporary, a link or
    /// somebody else's file is left alone.
    static func sweepPartials(of path: String) {
        let directory = PathName.directory(of: path)
        let prefix = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "") + ".partial-"
        guard let names = try? DirectoryEntries.names(in: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
            // kill(pid, 0): ESRCH only when no process has that id (EPERM: alive, somebody else's).
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let file = directory + "/" + name
            var info = stat()
            guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { continue }
            _ = unlink(file)
        }
    }
}

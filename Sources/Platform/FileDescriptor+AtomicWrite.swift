#if canImport(Glibc)
    import Glibc
#endif

/// Where a crash-safe write or a directory flush stopped, and the system's reason.
public struct FileWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The step that failed, in the order `writeAtomically` takes them.
    public enum Step: Hashable, Sendable {
        case create, write, flush, rename
        /// Opening the directory to flush it.
        case openDirectory
        case flushDirectory

        /// The verb of the sentence.
        var verb: String {
            switch self {
            case .create: "create"
            case .write: "write"
            case .flush, .flushDirectory: "flush"
            case .rename: "rename"
            case .openDirectory: "open"
            }
        }
    }

    public var step: Step
    /// The temporary file for the first four steps, the directory for the last two.
    public var path: String
    public var errno: Errno

    public init(step: Step, path: String, errno: Errno) {
        self.step = step
        self.path = path
        self.errno = errno
    }

    /// "cannot flush /var/lib/recoverydeck/x.tmp: No space left on device."
    public var description: String { "cannot \(step.verb) \(path): \(errno.message)." }
}

extension FileDescriptor {
    /// Writes `bytes` to `path` so that after a crash or a power cut the path holds either its old content or
    /// all of the new, never part: the bytes go to `temporary` (a name in the same directory, so the rename
    /// stays on one file system), which is flushed (`fsync`), renamed over `path` (rename(2) is atomic) and
    /// the directory flushed (the rename itself is durable only then).
    ///
    /// The temporary is created new with `permissions`, set exactly whatever the umask says, and never through a
    /// link (`O_NOFOLLOW`). `overwritingTemporary` false: anything already at `temporary` fails the write
    /// (`O_EXCL`); true: a regular file there, left by a crash during an earlier write, is emptied and reused.
    /// A failure before the rename removes the temporary (when this call created it) and leaves `path` as it
    /// was; a failure to flush the directory comes after the rename, so `path` then holds the new content
    /// without the promise that it survives a power cut.
    public static func writeAtomically(
        _ bytes: [UInt8], to path: String, temporary: String, permissions: FilePermissions,
        overwritingTemporary: Bool = false
    ) throws(FileWriteError) {
        let creation: OpenOptions =
            overwritingTemporary ? [.create, .truncate, .noFollow] : [.create, .exclusive, .noFollow]
        let fd: FileDescriptor
        do { fd = try open(temporary, .writeOnly, options: creation, permissions: permissions) } catch {
            throw FileWriteError(step: .create, path: temporary, errno: error)
        }
        var failure: FileWriteError?
        // A failure here leaves the bits the umask allowed: never more than asked.
        try? fd.setPermissions(permissions)
        do throws(Errno) { try fd.writeAll(bytes) } catch {
            failure = FileWriteError(step: .write, path: temporary, errno: error)
        }
        if failure == nil {
            do throws(Errno) { try fd.synchronize() } catch {
                failure = FileWriteError(step: .flush, path: temporary, errno: error)
            }
        }
        fd.close()
        if failure == nil, Glibc.rename(temporary, path) != 0 {
            failure = FileWriteError(step: .rename, path: temporary, errno: .current)
        }
        if let failure {
            _ = Glibc.unlink(temporary)
            throw failure
        }
        try synchronizeDirectory(ofFile: path)
    }

    /// Flushes the directory that holds `file`, so a rename or unlink of `file` survives a power cut.
    public static func synchronizeDirectory(ofFile file: String) throws(FileWriteError) {
        try synchronizeDirectory(atPath: PathName.directory(of: file))
    }

    /// Flushes the directory at `path` (its names: renames, unlinks and new files in it).
    public static func synchronizeDirectory(atPath path: String) throws(FileWriteError) {
        let fd: FileDescriptor
        do { fd = try open(path, .readOnly, options: .directory) } catch {
            throw FileWriteError(step: .openDirectory, path: path, errno: error)
        }
        defer { fd.close() }
        do throws(Errno) { try fd.synchronize() } catch {
            throw FileWriteError(step: .flushDirectory, path: path, errno: error)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

extension FileDescriptor {
    /// Whether a file is opened to read, to write or both (after swift-system's `FileDescriptor.AccessMode`).
    public struct AccessMode: RawRepresentable, Hashable, Sendable {
        public let rawValue: CInt
        public init(rawValue: CInt) { self.rawValue = rawValue }

        /// The C constant is `O_RDONLY`.
        public static let readOnly = AccessMode(rawValue: O_RDONLY)
        /// The C constant is `O_WRONLY`.
        public static let writeOnly = AccessMode(rawValue: O_WRONLY)
        /// The C constant is `O_RDWR`.
        public static let readWrite = AccessMode(rawValue: O_RDWR)
    }

    /// How `open` treats the path and the file (after swift-system's `FileDescriptor.OpenOptions`). There is no
    /// close-on-exec option: every descriptor opened here has it, so none leaks into a child process.
    public struct OpenOptions: OptionSet, Hashable, Sendable {
        public let rawValue: CInt
        public init(rawValue: CInt) { self.rawValue = rawValue }

        /// Reads and writes never block; neither does the open of a FIFO. The C constant is `O_NONBLOCK`.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// Every write goes to the end of the file. The C constant is `O_APPEND`.
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// A missing file is created with the permissions given. The C constant is `O_CREAT`.
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// An existing regular file opened for writing is emptied. The C constant is `O_TRUNC`.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// With `create`: fails with `EEXIST` when anything, a link too, is at the path. The C constant is `O_EXCL`.
        public static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// Fails with `ELOOP` when the last component is a symbolic link. The C constant is `O_NOFOLLOW`.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// Fails with `ENOTDIR` unless the path is a directory. The C constant is `O_DIRECTORY`.
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
        /// A terminal never becomes the process's controlling terminal. The C constant is `O_NOCTTY`.
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
    }

    /// Opens `path`; `O_CLOEXEC` is always added. `permissions` apply only when `options` has `create` and the
    /// file is new (less the umask). Retries `EINTR` (a FIFO's open can be interrupted).
    /// The corresponding C function is `open`.
    public static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: FilePermissions = []
    ) throws(Errno) -> FileDescriptor {
        let flags = mode.rawValue | options.rawValue | O_CLOEXEC
        return FileDescriptor(rawValue: try valueOrErrno { Glibc.open(path, flags, permissions.rawValue) })
    }

    /// Opens `name` relative to the directory this descriptor holds, as `open(_:_:options:permissions:)` does:
    /// a rename of the directory's path between two calls cannot redirect the second.
    /// The corresponding C function is `openat`.
    public func open(
        relative name: String, _ mode: AccessMode, options: OpenOptions = [], permissions: FilePermissions = []
    ) throws(Errno) -> FileDescriptor {
        let flags = mode.rawValue | options.rawValue | O_CLOEXEC
        return FileDescriptor(rawValue: try valueOrErrno { Glibc.openat(rawValue, name, flags, permissions.rawValue) })
    }

    /// The file's status. The corresponding C function is `fstat`.
    public func status() throws(Errno) -> stat {
        var info = stat()
        _ = try valueOrErrno { fstat(rawValue, &info) }
        return info
    }

    /// Flushes the file's data and metadata to the disk; on a directory, the names in it (a rename or an
    /// unlink survives a power cut only once its directory is flushed). The corresponding C function is `fsync`.
    public func synchronize() throws(Errno) {
        _ = try valueOrErrno { fsync(rawValue) }
    }

    /// Sets the file's permission bits exactly, whatever the umask took at creation.
    /// The corresponding C function is `fchmod`.
    public func setPermissions(_ permissions: FilePermissions) throws(Errno) {
        _ = try valueOrErrno { fchmod(rawValue, permissions.rawValue) }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

extension FileDescriptor {
    /// Opens `path` with `flags`; `O_CLOEXEC` is always added, so no descriptor leaks into a child
    /// process. `permissions` apply only when `flags` creates the file. Retries `EINTR` (a FIFO's open
    /// can be interrupted). The corresponding C function is `open`.
    public static func open(_ path: String, flags: CInt, permissions: mode_t = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try valueOrErrno { Glibc.open(path, flags | O_CLOEXEC, permissions) })
    }

    /// Opens `name` relative to the directory this descriptor holds, as `open(_:flags:permissions:)` does:
    /// a rename of the directory's path between two calls cannot redirect the second.
    /// The corresponding C function is `openat`.
    public func open(
        relative name: String, flags: CInt, permissions: mode_t = 0
    ) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try valueOrErrno { Glibc.openat(rawValue, name, flags | O_CLOEXEC, permissions) })
    }

    /// The file's status. The corresponding C function is `fstat`.
    public func status() throws(Errno) -> stat {
        var info = stat()
        _ = try valueOrErrno { fstat(rawValue, &info) }
        return info
    }
}

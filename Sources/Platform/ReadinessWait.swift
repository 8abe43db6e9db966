#if canImport(Glibc)
    import Glibc
#endif

/// Waiting on a few descriptors where there is no event loop: the command line's Bluetooth commands and
/// control client, the management channel's blocking requests, the strap simulator. The daemon uses its
/// epoll loop instead.
public enum ReadinessWait {
    /// The members of `fds` that are readable, hung up or failed within `timeoutMs` (nil: no limit); empty
    /// when the time ran out or a signal arrived first.
    /// The corresponding C function is `poll`.
    public static func readable(_ fds: [FileDescriptor], timeoutMs: Int64?) throws(Errno) -> [FileDescriptor] {
        try ready(fds, for: POLLIN, timeoutMs: timeoutMs)
    }

    /// The members of `fds` that are writable, hung up or failed within `timeoutMs` (nil: no limit); empty
    /// when the time ran out or a signal arrived first.
    /// The corresponding C function is `poll`.
    public static func writable(_ fds: [FileDescriptor], timeoutMs: Int64?) throws(Errno) -> [FileDescriptor] {
        try ready(fds, for: POLLOUT, timeoutMs: timeoutMs)
    }

    private static func ready(_ fds: [FileDescriptor], for events: CInt, timeoutMs: Int64?) throws(Errno)
        -> [FileDescriptor]
    {
        var polled = fds.map { pollfd(fd: $0.rawValue, events: Int16(events), revents: 0) }
        let timeout = timeoutMs.map { CInt(clamping: max(0, $0)) } ?? -1
        // Not retried on EINTR: the caller's deadline decides whether to wait again.
        let count = polled.withUnsafeMutableBufferPointer { system_poll($0.baseAddress!, nfds_t($0.count), timeout) }
        if count < 0 {
            let error = Errno.current
            if error == .interrupted { return [] }
            throw error
        }
        guard count > 0 else { return [] }
        return zip(fds, polled).filter { $0.1.revents != 0 }.map(\.0)
    }
}

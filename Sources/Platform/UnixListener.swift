import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// A listening Unix-domain socket, non-blocking, for the event loop.
public struct UnixListener: Hashable, Sendable {
    public let descriptor: FileDescriptor
    public let address: UnixSocketAddress
    public let kind: UnixSocketKind

    /// Binds and listens at `address`. A socket file left by an earlier run at the path is removed first
    /// when `replacingStale` (only a socket: any other file makes this fail with EADDRINUSE). `mode`, when
    /// given, is applied to the socket file (who may connect is decided by file permissions first).
    /// The corresponding C functions are `socket`, `bind`, `chmod` and `listen`.
    public static func listen(
        at address: UnixSocketAddress, kind: UnixSocketKind = .seqpacket, backlog: Int32 = 8,
        replacingStale: Bool = true, mode: mode_t? = nil
    ) throws(Errno) -> UnixListener {
        let fd = FileDescriptor(rawValue: try valueOrErrno { system_socket(AF_UNIX, kind.rawValue, 0) })
        do {
            try fd.setNonBlocking()
            if replacingStale && !address.isAbstract {
                var info = stat()
                if lstat(address.text, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK {
                    _ = system_unlink(address.text)
                }
            }
            _ = try valueOrErrno { address.withSockaddr { system_bind(fd.rawValue, $0, $1) } }
            if let mode, !address.isAbstract { _ = try valueOrErrno { chmod(address.text, mode) } }
            _ = try valueOrErrno { system_listen(fd.rawValue, backlog) }
        } catch {
            fd.close()
            throw error
        }
        return UnixListener(descriptor: fd, address: address, kind: kind)
    }

    /// The next pending connection, or nil when none is waiting.
    /// The corresponding C function is `accept4`.
    public func accept() throws(Errno) -> UnixConnection? {
        do {
            let fd = try valueOrErrno { system_accept(descriptor.rawValue) }
            return UnixConnection(descriptor: FileDescriptor(rawValue: fd))
        } catch  where error == .wouldBlock {
            return nil
        }
    }

    /// Closes the socket and, for a path, removes its file.
    /// The corresponding C functions are `close` and `unlink`.
    public func close() {
        descriptor.close()
        if !address.isAbstract { _ = system_unlink(address.text) }
    }
}

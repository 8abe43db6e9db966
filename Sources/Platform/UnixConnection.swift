import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// One Unix-domain connection, non-blocking.
public struct UnixConnection: Hashable, Sendable {
    public let descriptor: FileDescriptor

    public init(descriptor: FileDescriptor) { self.descriptor = descriptor }

    /// Connects to a listener within `timeoutMs`, then non-blocking use. A local connect normally completes at
    /// once; when the listener's backlog is full (a daemon that stopped accepting, out of descriptors or
    /// stopped) a blocking connect would wait for ever, so the socket is non-blocking from the start and a
    /// refused attempt (`EAGAIN`, unix(7)) is retried every 10 ms until the deadline, then `ETIMEDOUT`.
    /// The corresponding C functions are `socket` and `connect`.
    public static func connect(
        to address: UnixSocketAddress, kind: UnixSocketKind = .seqpacket, timeoutMs: Int64 = 5_000
    ) throws(Errno) -> UnixConnection {
        let fd = FileDescriptor(rawValue: try valueOrErrno { system_socket(AF_UNIX, kind.rawValue, 0) })
        do {
            try fd.setNonBlocking()
            let deadline = SystemClock.monotonicMs() + max(0, timeoutMs)
            try connectBefore(deadline, fd, address)
        } catch {
            fd.close()
            throw error
        }
        return UnixConnection(descriptor: fd)
    }

    private static func connectBefore(_ deadline: Int64, _ fd: FileDescriptor, _ address: UnixSocketAddress)
        throws(Errno)
    {
        while true {
            let result = address.withSockaddr { system_connect(fd.rawValue, $0, $1) }
            if result == 0 { return }
            let error = Errno.current
            switch error {
            case .interrupted: continue
            case .wouldBlock:
                guard SystemClock.monotonicMs() < deadline else { throw .timedOut }
                usleep(10_000)
            case .inProgress:
                // Not seen for AF_UNIX, but allowed by connect(2): wait for writability, then SO_ERROR.
                let left = deadline - SystemClock.monotonicMs()
                guard let ready = try? ReadinessWait.writable([fd], timeoutMs: left), !ready.isEmpty else {
                    throw .timedOut
                }
                var code: CInt = 0
                var length = socklen_t(MemoryLayout<CInt>.size)
                _ = getsockopt(fd.rawValue, SOL_SOCKET, SO_ERROR, &code, &length)
                if code != 0 { throw Errno(rawValue: code) }
                return
            default: throw error
            }
        }
    }

    /// Two connected ends, for tests and in-process peers.
    /// The corresponding C function is `socketpair`.
    public static func pair(kind: UnixSocketKind = .seqpacket) throws(Errno) -> (UnixConnection, UnixConnection) {
        var fds: [CInt] = [-1, -1]
        _ = try valueOrErrno {
            fds.withUnsafeMutableBufferPointer { system_socketpair(kind.rawValue, $0.baseAddress!) }
        }
        let a = FileDescriptor(rawValue: fds[0])
        let b = FileDescriptor(rawValue: fds[1])
        do {
            try a.setNonBlocking()
            try b.setNonBlocking()
        } catch {
            a.close()
            b.close()
            throw error
        }
        return (UnixConnection(descriptor: a), UnixConnection(descriptor: b))
    }

    /// The connecting process's pid, uid and gid as the kernel saw them at connect time.
    /// The corresponding C function is `getsockopt` with `SO_PEERCRED`.
    public func peerCredentials() throws(Errno) -> PeerCredentials {
        var raw = cplatform_credentials()
        _ = try valueOrErrno { system_peer_credentials(descriptor.rawValue, &raw) }
        return PeerCredentials(pid: raw.pid, uid: raw.uid, gid: raw.gid, groups: try peerGroups())
    }

    /// The peer's supplementary groups at connect time (Linux 4.13 and later).
    /// The corresponding C call is `getsockopt(SO_PEERGROUPS)`.
    public func peerGroups() throws(Errno) -> [UInt32] {
        var capacity: CInt = 64
        while true {
            var groups = [UInt32](repeating: 0, count: Int(capacity))
            var needed: CInt = 0
            let count = groups.withUnsafeMutableBufferPointer {
                system_peer_groups(descriptor.rawValue, $0.baseAddress!, capacity, &needed)
            }
            if count >= 0 { return Array(groups.prefix(Int(count))) }
            let error = Errno.current
            guard error.rawValue == ERANGE, needed > capacity, needed <= 256 else { throw error }
            capacity = needed
        }
    }

    /// Sends `bytes` as one record (SEQPACKET) or as stream bytes; returns the count sent. Never raises
    /// SIGPIPE: a closed peer is `EPIPE`.
    /// The corresponding C function is `send`.
    @discardableResult
    public func send(_ bytes: [UInt8]) throws(Errno) -> Int {
        try valueOrErrno { bytes.withUnsafeBytes { system_send(descriptor.rawValue, $0) } }
    }

    /// Receives one record (SEQPACKET; longer records are cut at `maximumBytes`) or up to `maximumBytes`
    /// stream bytes. Nil when nothing is waiting; empty when the peer has closed.
    /// The corresponding C function is `recv`.
    public func receive(maximumBytes: Int = 4096) throws(Errno) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: maximumBytes)
        do {
            let n = try valueOrErrno { buffer.withUnsafeMutableBytes { system_recv(descriptor.rawValue, $0) } }
            buffer.removeSubrange(n...)
            return buffer
        } catch  where error == .wouldBlock {
            return nil
        }
    }

    /// One record and whether it was longer than `maximumBytes`: `MSG_TRUNC` makes the kernel return the
    /// record's real length (unix(7), recv(2)), so a cut record is known to be cut, never taken whole.
    /// Nil when nothing is waiting; empty bytes when the peer has closed.
    /// The corresponding C function is `recv` with `MSG_TRUNC`.
    public func receiveRecord(maximumBytes: Int) throws(Errno) -> (bytes: [UInt8], truncated: Bool)? {
        var buffer = [UInt8](repeating: 0, count: maximumBytes)
        do {
            let n = try valueOrErrno {
                buffer.withUnsafeMutableBytes { system_recv(descriptor.rawValue, $0, flags: CInt(MSG_TRUNC)) }
            }
            if n > maximumBytes { return (buffer, true) }
            buffer.removeSubrange(n...)
            return (buffer, false)
        } catch  where error == .wouldBlock {
            return nil
        }
    }

    /// The corresponding C function is `close`.
    public func close() { descriptor.close() }
}

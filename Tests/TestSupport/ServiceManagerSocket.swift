import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket standing in for systemd's notification socket (sd_notify(3)): the address a daemon is given as
/// `NOTIFY_SOCKET`. `receive` returns the datagram waiting, or "<nothing>"; `next` and `waitForReady` wait for one
/// with poll(2), never sleeping.
public struct ServiceManagerSocket {
    public let fd: CInt
    public let address: UnixSocketAddress

    public init(address: UnixSocketAddress) throws {
        self.address = address
        fd = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Errno.current }
        var raw = sockaddr_un()
        raw.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.text.utf8)
        if address.isAbstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &raw.sun_path) { for (i, b) in bytes.enumerated() { $0[i] = b } }
        let length =
            MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count
            + (address.isAbstract ? 0 : 1)
        let rc = withUnsafePointer(to: &raw) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        if rc != 0 {
            let error = Errno.current
            _ = Glibc.close(fd)
            throw error
        }
    }

    /// The datagram waiting now, or "<nothing>".
    public func receive() -> String { next(timeoutMs: 0) ?? "<nothing>" }

    /// The next datagram, waiting up to `timeoutMs`; nil when none came.
    public func next(timeoutMs: Int32) -> String? {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, timeoutMs) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, CInt(MSG_DONTWAIT))
        return n >= 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : nil
    }

    /// True once a datagram holding the line READY=1 arrives within `timeoutMs` (a daemon's watchdog and status
    /// datagrams before it are passed over).
    public func waitForReady(timeoutMs: Int32) -> Bool {
        let deadline = SystemClock.monotonicMs() + Int64(timeoutMs)
        while true {
            let left = deadline - SystemClock.monotonicMs()
            guard left > 0, let message = next(timeoutMs: Int32(left)) else { return false }
            if message.split(separator: "\n").contains("READY=1") { return true }
        }
    }

    public func close() { _ = Glibc.close(fd) }
}

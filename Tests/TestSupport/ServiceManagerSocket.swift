import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket standing in for systemd's notification socket: `receive` returns one datagram, or
/// "<nothing>" when none is waiting.
public struct ServiceManagerSocket {
    public let fd: CInt

    public init(address: UnixSocketAddress) throws {
        fd = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue), 0)
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
        if rc != 0 { throw Errno.current }
    }

    public func receive() -> String {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = recv(fd, &buffer, buffer.count, CInt(MSG_DONTWAIT))
        return n < 0 ? "<nothing>" : String(decoding: buffer.prefix(n), as: UTF8.self)
    }

    public func close() { _ = Glibc.close(fd) }
}

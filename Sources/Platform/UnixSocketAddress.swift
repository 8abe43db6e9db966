#if canImport(Glibc)
    import Glibc
#endif

/// A Unix-domain socket address: a filesystem path, or an abstract name written with a leading `@`
/// (the systemd convention; the kernel's form starts with a NUL byte and has no terminator).
public struct UnixSocketAddress: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    /// Longest name `sun_path` holds (108 bytes including the terminator for paths).
    public static let maximumLength = 107

    /// Nil for an empty name or one too long for `sockaddr_un`.
    public init?(_ text: String) {
        let count = text.utf8.count
        guard count > 0, count <= UnixSocketAddress.maximumLength, !(text == "@") else { return nil }
        self.text = text
    }

    public var isAbstract: Bool { text.hasPrefix("@") }

    public var description: String { text }

    /// Calls `body` with the kernel form of the address and its exact length.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(text.utf8)
        if isAbstract { bytes[0] = 0 }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (i, b) in bytes.enumerated() { path[i] = b }
        }
        // Abstract names are exactly their bytes; paths carry their terminating NUL.
        let length = pathOffset + bytes.count + (isAbstract ? 0 : 1)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}

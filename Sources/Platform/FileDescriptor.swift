#if canImport(Glibc)
    import Glibc
#endif

/// An open file descriptor: a tiny value type, closed explicitly by its owner (after swift-system).
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: CInt

    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// Reads into `buffer`; returns the count (0 at end of file).
    /// The corresponding C function is `read`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes `buffer`; returns the count written.
    /// The corresponding C function is `write`.
    @discardableResult
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `bytes` as one call (a datagram / SEQPACKET record on sockets).
    @discardableResult
    public func write(_ bytes: [UInt8]) throws(Errno) -> Int {
        let result = bytes.withUnsafeBytes { b in Result { () throws(Errno) -> Int in try write(b) } }
        return try result.get()
    }

    /// Writes every byte of `buffer`, going on after short writes (`write` already retries `EINTR`); a
    /// write that takes nothing is `EIO`.
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            let n = try write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            guard n > 0 else { throw Errno(rawValue: EIO) }
            offset += n
        }
    }

    /// Writes every byte of `bytes`, as `writeAll(_:)` on a buffer does.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        let result = bytes.withUnsafeBytes { b in Result { () throws(Errno) in try writeAll(b) } }
        try result.get()
    }

    /// The corresponding C function is `close`. EINTR is not retried: on Linux the descriptor is gone.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// Sets or clears `O_NONBLOCK`. The corresponding C function is `fcntl`.
    public func setNonBlocking(_ on: Bool = true) throws(Errno) {
        let flags = try valueOrErrno { fcntl(rawValue, F_GETFL) }
        let wanted = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        if wanted != flags { _ = try valueOrErrno { fcntl(rawValue, F_SETFL, wanted) } }
    }
}

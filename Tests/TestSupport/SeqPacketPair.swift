import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// Both ends of `socketpair(AF_UNIX, SOCK_SEQPACKET)`, non-blocking: a kernel socket that keeps
/// record boundaries like an L2CAP ATT channel, so each write is read back as one PDU.
public struct SeqPacketPair {
    public let box: FileDescriptor
    public let strap: FileDescriptor

    public init() throws {
        var fds: [CInt] = [-1, -1]
        let rc = socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue), 0, &fds)
        guard rc == 0 else { throw Errno.current }
        box = FileDescriptor(rawValue: fds[0])
        strap = FileDescriptor(rawValue: fds[1])
        try box.setNonBlocking()
        try strap.setNonBlocking()
    }

    public func close() {
        box.close()
        strap.close()
    }

    /// One record, or nil when none is waiting.
    public static func readPDU(_ fd: FileDescriptor) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let result = buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) -> Int in try fd.read(into: raw) }
        }
        switch result {
        case .success(let n): return Array(buffer[0..<n])
        case .failure(let errno) where errno == .wouldBlock: return nil
        case .failure(let errno): throw errno
        }
    }
}

import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Which Unix-domain socket type: SEQPACKET keeps message boundaries on a connection (the control
/// socket's choice: one request per record), STREAM is a byte stream.
public enum UnixSocketKind: Sendable {
    case seqpacket
    case stream

    var rawValue: CInt {
        switch self {
        case .seqpacket: CInt(SOCK_SEQPACKET.rawValue)
        case .stream: CInt(SOCK_STREAM.rawValue)
        }
    }
}

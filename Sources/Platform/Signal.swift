import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX signal number.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: CInt

    public init(rawValue: CInt) { self.rawValue = rawValue }

    public static let terminate = Signal(rawValue: SIGTERM)
    public static let interrupt = Signal(rawValue: SIGINT)
    public static let hangup = Signal(rawValue: SIGHUP)
    public static let user1 = Signal(rawValue: SIGUSR1)
    public static let user2 = Signal(rawValue: SIGUSR2)

    public var description: String {
        switch self {
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        case .hangup: "SIGHUP"
        case .user1: "SIGUSR1"
        case .user2: "SIGUSR2"
        default: "signal \(rawValue)"
        }
    }
}

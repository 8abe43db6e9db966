#if canImport(Glibc)
    import Glibc
#endif

/// One state change told to the service manager (systemd's sd_notify protocol: newline-separated
/// `KEY=value` assignments in one datagram; sd_notify(3)).
public enum NotifyState: Hashable, Sendable {
    /// Start-up finished (`Type=notify`).
    case ready
    /// Still alive: resets the watchdog timer.
    case watchdog
    /// A one-line human-readable status shown by `systemctl status`.
    case status(String)
    /// Shutting down.
    case stopping
    /// Reloading configuration.
    case reloading

    var assignment: String {
        switch self {
        case .ready: "READY=1"
        case .watchdog: "WATCHDOG=1"
        case .stopping: "STOPPING=1"
        case .reloading: "RELOADING=1"
        case .status(let text):
            // One line: a newline would start a new assignment.
            "STATUS=" + String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        }
    }
}

/// The service manager's notification socket, spoken to without libsystemd: a datagram socket sending to
/// the path or abstract name in `NOTIFY_SOCKET`.
public struct NotifySocket: Hashable, Sendable {
    public let descriptor: FileDescriptor
    public let address: UnixSocketAddress

    /// Opens a socket for the address in `NOTIFY_SOCKET`; nil when the variable is unset or empty (not
    /// started by a service manager that wants notifications), or names an address that cannot be.
    /// `environment` reads one variable (`{ getenv }` in the daemon, a dictionary in tests).
    public static func fromEnvironment(_ environment: (String) -> String?) throws(Errno) -> NotifySocket? {
        guard let text = environment("NOTIFY_SOCKET"), let address = UnixSocketAddress(text) else { return nil }
        return try NotifySocket(address: address)
    }

    /// The corresponding C function is `socket`.
    public init(address: UnixSocketAddress) throws(Errno) {
        descriptor = FileDescriptor(
            rawValue: try valueOrErrno { system_socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue), 0) })
        self.address = address
    }

    /// The datagram `send` would send for `states`.
    public static func message(_ states: [NotifyState]) -> String {
        states.map(\.assignment).joined(separator: "\n")
    }

    /// Sends `states` as one datagram.
    /// The corresponding C function is `sendto`.
    public func send(_ states: [NotifyState]) throws(Errno) {
        let bytes = Array(NotifySocket.message(states).utf8)
        _ = try valueOrErrno {
            bytes.withUnsafeBytes { b in address.withSockaddr { system_sendto(descriptor.rawValue, b, $0, $1) } }
        }
    }

    /// The corresponding C function is `close`.
    public func close() { descriptor.close() }

    /// The watchdog period the service manager expects, in microseconds, from `WATCHDOG_USEC`; nil when
    /// unset, malformed, zero, or meant for another process (`WATCHDOG_PID` naming a pid not `pid`).
    /// Pinging at half the period is the documented practice (sd_watchdog_enabled(3)).
    public static func watchdogMicroseconds(_ environment: (String) -> String?, pid: Int32) -> UInt64? {
        guard let text = environment("WATCHDOG_USEC"), let usec = UInt64(text), usec > 0 else { return nil }
        if let owner = environment("WATCHDOG_PID"), !owner.isEmpty {
            guard let ownerPID = Int32(owner), ownerPID == pid else { return nil }
        }
        return usec
    }
}

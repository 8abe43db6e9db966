/// Why a link went down (BlueZ mgmt-api "Device Disconnected" Reason).
public struct DisconnectReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let unspecified = DisconnectReason(rawValue: 0)
    public static let connectionTimeout = DisconnectReason(rawValue: 1)
    public static let localHost = DisconnectReason(rawValue: 2)
    public static let remoteHost = DisconnectReason(rawValue: 3)
    public static let authenticationFailure = DisconnectReason(rawValue: 4)
    public static let localHostSuspend = DisconnectReason(rawValue: 5)

    public var description: String {
        switch self {
        case .unspecified: "the link was lost for an unspecified reason"
        case .connectionTimeout: "the link timed out (strap out of range, off the body, or its battery is flat)"
        case .localHost: "the link was closed by this box"
        case .remoteHost: "the strap closed the link"
        case .authenticationFailure: "the link closed after an authentication failure"
        case .localHostSuspend: "the link was closed because this box suspended"
        default: "the link was lost (reason \(rawValue))"
        }
    }
}

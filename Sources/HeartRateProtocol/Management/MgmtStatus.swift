/// A management command's status (BlueZ mgmt-api "Error Codes"), with one sentence a person can
/// act on. A struct rather than an enum so that a code added by a newer kernel still reads.
public struct MgmtStatus: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = MgmtStatus(rawValue: 0x00)
    public static let unknownCommand = MgmtStatus(rawValue: 0x01)
    public static let notConnected = MgmtStatus(rawValue: 0x02)
    public static let failed = MgmtStatus(rawValue: 0x03)
    public static let connectFailed = MgmtStatus(rawValue: 0x04)
    public static let authenticationFailed = MgmtStatus(rawValue: 0x05)
    public static let notPaired = MgmtStatus(rawValue: 0x06)
    public static let noResources = MgmtStatus(rawValue: 0x07)
    public static let timeout = MgmtStatus(rawValue: 0x08)
    public static let alreadyConnected = MgmtStatus(rawValue: 0x09)
    public static let busy = MgmtStatus(rawValue: 0x0A)
    public static let rejected = MgmtStatus(rawValue: 0x0B)
    public static let notSupported = MgmtStatus(rawValue: 0x0C)
    public static let invalidParameters = MgmtStatus(rawValue: 0x0D)
    public static let disconnected = MgmtStatus(rawValue: 0x0E)
    public static let notPowered = MgmtStatus(rawValue: 0x0F)
    public static let cancelled = MgmtStatus(rawValue: 0x10)
    public static let invalidIndex = MgmtStatus(rawValue: 0x11)
    public static let rfkilled = MgmtStatus(rawValue: 0x12)
    public static let alreadyPaired = MgmtStatus(rawValue: 0x13)
    public static let permissionDenied = MgmtStatus(rawValue: 0x14)

    public var isSuccess: Bool { self == .success }

    public var description: String {
        switch self {
        case .success: "the command succeeded"
        case .unknownCommand: "the kernel does not know this management command (kernel too old?)"
        case .notConnected: "the device is not connected"
        case .failed: "the controller reported a failure"
        case .connectFailed: "the connection attempt failed"
        case .authenticationFailed: "authentication with the device failed"
        case .notPaired: "the device is not paired"
        case .noResources: "the controller has no resources left for this"
        case .timeout: "the controller did not answer in time"
        case .alreadyConnected: "the device is already connected"
        case .busy: "the controller is busy with another operation; try again shortly"
        case .rejected: "the controller rejected the command (is Low Energy switched on?)"
        case .notSupported: "the controller does not support this"
        case .invalidParameters: "the command's parameters were invalid"
        case .disconnected: "the device disconnected"
        case .notPowered: "the Bluetooth adapter is powered off; power it on (e.g. `btmgmt power on`)"
        case .cancelled: "the operation was cancelled"
        case .invalidIndex: "there is no Bluetooth adapter with that index"
        case .rfkilled: "Bluetooth is blocked by rfkill; unblock it with `rfkill unblock bluetooth`"
        case .alreadyPaired: "the device is already paired"
        case .permissionDenied: "permission denied: the management interface needs CAP_NET_ADMIN (run as root)"
        default: "management status 0x\(hex2(rawValue))"
        }
    }
}

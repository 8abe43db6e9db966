/// A management event from the kernel (BlueZ mgmt-api "Events").
public enum MgmtEvent: Hashable, Sendable {
    /// 0x0001: a command finished; `reply` holds its decoded return parameters.
    case commandComplete(MgmtOpcode, status: MgmtStatus, reply: MgmtReply)
    /// 0x0002: an early status; a failure here also ends the command.
    case commandStatus(MgmtOpcode, status: MgmtStatus)
    /// 0x0003: the controller reported a hardware error.
    case controllerError(code: UInt8)
    /// 0x0004, 0x0005: a controller appeared or went away (the packet's index says which).
    case indexAdded
    case indexRemoved
    /// 0x0006
    case newSettings(ControllerSettings)
    /// 0x0008
    case localNameChanged(name: String, shortName: String)
    /// 0x000B
    case deviceConnected(BluetoothAddress, BluetoothAddressType, flags: UInt32, eir: [UInt8])
    /// 0x000C
    case deviceDisconnected(BluetoothAddress, BluetoothAddressType, reason: DisconnectReason)
    /// 0x0012
    case deviceFound(DeviceFound)
    /// 0x0013
    case discovering(DiscoveryAddressTypes, active: Bool)
    /// 0x001C: the kernel accepted a device's request for new connection parameters (either
    /// procedure); `storeHint` is true when it kept them for the device's next connection.
    case newConnectionParameter(DeviceConnectionParameters, storeHint: Bool)
    /// 0x0023, 0x0024
    case advertisingAdded(instance: UInt8)
    case advertisingRemoved(instance: UInt8)
    /// Any other event, kept as received (the box ignores them).
    case other(MgmtEventCode, parameters: [UInt8])

    public var code: MgmtEventCode {
        switch self {
        case .commandComplete: .commandComplete
        case .commandStatus: .commandStatus
        case .controllerError: .controllerError
        case .indexAdded: .indexAdded
        case .indexRemoved: .indexRemoved
        case .newSettings: .newSettings
        case .localNameChanged: .localNameChanged
        case .deviceConnected: .deviceConnected
        case .deviceDisconnected: .deviceDisconnected
        case .deviceFound: .deviceFound
        case .discovering: .discovering
        case .newConnectionParameter: .newConnectionParameter
        case .advertisingAdded: .advertisingAdded
        case .advertisingRemoved: .advertisingRemoved
        case .other(let code, _): code
        }
    }
}

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

/// A Command Complete's return parameters, decoded for the commands the box sends. A failed
/// command's parameters, and those of commands not listed, stay `.raw`.
public enum MgmtReply: Hashable, Sendable {
    case none
    case version(version: UInt8, revision: UInt16)
    case controllerIndexList([ControllerIndex])
    case controllerInfo(ControllerInfo)
    /// Set Powered / Discoverable / Connectable / Bondable / Low Energy / Advertising.
    case settings(ControllerSettings)
    case localName(name: String, shortName: String)
    /// Disconnect.
    case address(BluetoothAddress, BluetoothAddressType)
    /// Start / Stop Discovery.
    case discovery(DiscoveryAddressTypes)
    case advertisingFeatures(AdvertisingFeatures)
    /// Add / Remove Advertising.
    case advertisingInstance(UInt8)
    /// Set Appearance and Load Connection Parameters have no return parameters; others are kept as received.
    case raw([UInt8])
}

/// Why octets from the management socket are not a well-formed packet.
public enum MgmtDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer than the 6 header octets.
    case shortHeader(Int)
    /// The header's parameter length disagrees with what followed it.
    case lengthMismatch(declared: Int, actual: Int)
    /// An event whose parameters have an impossible length for its code.
    case invalidEvent(MgmtEventCode, length: Int)
    /// A successful Command Complete whose return parameters do not fit its command.
    case invalidReply(MgmtOpcode, length: Int)
    /// A command whose parameters do not fit it (kernel-side decoding, for fakes).
    case invalidCommand(MgmtOpcode, length: Int)
    /// A command this codec does not know.
    case unknownCommand(MgmtOpcode)
    /// An address type other than BR/EDR, LE public or LE random.
    case unknownAddressType(UInt8)

    public var description: String {
        switch self {
        case .shortHeader(let n): "management packet of \(n) bytes is shorter than its 6-byte header"
        case .lengthMismatch(let declared, let actual):
            "management packet declares \(declared) parameter bytes but carries \(actual)"
        case .invalidEvent(let code, let length): "\(code) event with \(length) parameter bytes is malformed"
        case .invalidReply(let opcode, let length): "\(opcode) reply with \(length) bytes is malformed"
        case .invalidCommand(let opcode, let length): "\(opcode) command with \(length) parameter bytes is malformed"
        case .unknownCommand(let opcode): "unknown \(opcode)"
        case .unknownAddressType(let t): "unknown address type \(t)"
        }
    }
}

/// One event packet: the controller it concerns and the event.
public struct MgmtEventPacket: Hashable, Sendable {
    public var index: ControllerIndex
    public var event: MgmtEvent

    public init(index: ControllerIndex, event: MgmtEvent) {
        self.index = index
        self.event = event
    }
}

/// A management command code (BlueZ mgmt-api "Commands").
public struct MgmtOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let readVersion = MgmtOpcode(rawValue: 0x0001)
    public static let readControllerIndexList = MgmtOpcode(rawValue: 0x0003)
    public static let readControllerInfo = MgmtOpcode(rawValue: 0x0004)
    public static let setPowered = MgmtOpcode(rawValue: 0x0005)
    public static let setDiscoverable = MgmtOpcode(rawValue: 0x0006)
    public static let setConnectable = MgmtOpcode(rawValue: 0x0007)
    public static let setBondable = MgmtOpcode(rawValue: 0x0009)
    public static let setLowEnergy = MgmtOpcode(rawValue: 0x000D)
    public static let setLocalName = MgmtOpcode(rawValue: 0x000F)
    public static let disconnect = MgmtOpcode(rawValue: 0x0014)
    public static let startDiscovery = MgmtOpcode(rawValue: 0x0023)
    public static let stopDiscovery = MgmtOpcode(rawValue: 0x0024)
    public static let setAdvertising = MgmtOpcode(rawValue: 0x0029)
    public static let setStaticAddress = MgmtOpcode(rawValue: 0x002B)
    public static let loadConnectionParameters = MgmtOpcode(rawValue: 0x0035)
    public static let readAdvertisingFeatures = MgmtOpcode(rawValue: 0x003D)
    public static let addAdvertising = MgmtOpcode(rawValue: 0x003E)
    public static let removeAdvertising = MgmtOpcode(rawValue: 0x003F)
    public static let setAppearance = MgmtOpcode(rawValue: 0x0043)

    public var description: String {
        switch self {
        case .readVersion: "Read Management Version Information"
        case .readControllerIndexList: "Read Controller Index List"
        case .readControllerInfo: "Read Controller Information"
        case .setPowered: "Set Powered"
        case .setDiscoverable: "Set Discoverable"
        case .setConnectable: "Set Connectable"
        case .setBondable: "Set Bondable"
        case .setLowEnergy: "Set Low Energy"
        case .setLocalName: "Set Local Name"
        case .disconnect: "Disconnect"
        case .startDiscovery: "Start Discovery"
        case .stopDiscovery: "Stop Discovery"
        case .setAdvertising: "Set Advertising"
        case .setStaticAddress: "Set Static Address"
        case .loadConnectionParameters: "Load Connection Parameters"
        case .readAdvertisingFeatures: "Read Advertising Features"
        case .addAdvertising: "Add Advertising"
        case .removeAdvertising: "Remove Advertising"
        case .setAppearance: "Set Appearance"
        default: "management command 0x\(hex4(rawValue))"
        }
    }
}

/// A management event code (BlueZ mgmt-api "Events").
public struct MgmtEventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let commandComplete = MgmtEventCode(rawValue: 0x0001)
    public static let commandStatus = MgmtEventCode(rawValue: 0x0002)
    public static let controllerError = MgmtEventCode(rawValue: 0x0003)
    public static let indexAdded = MgmtEventCode(rawValue: 0x0004)
    public static let indexRemoved = MgmtEventCode(rawValue: 0x0005)
    public static let newSettings = MgmtEventCode(rawValue: 0x0006)
    public static let localNameChanged = MgmtEventCode(rawValue: 0x0008)
    public static let deviceConnected = MgmtEventCode(rawValue: 0x000B)
    public static let deviceDisconnected = MgmtEventCode(rawValue: 0x000C)
    public static let deviceFound = MgmtEventCode(rawValue: 0x0012)
    public static let discovering = MgmtEventCode(rawValue: 0x0013)
    public static let newConnectionParameter = MgmtEventCode(rawValue: 0x001C)
    public static let advertisingAdded = MgmtEventCode(rawValue: 0x0023)
    public static let advertisingRemoved = MgmtEventCode(rawValue: 0x0024)

    public var description: String {
        switch self {
        case .commandComplete: "Command Complete"
        case .commandStatus: "Command Status"
        case .controllerError: "Controller Error"
        case .indexAdded: "Index Added"
        case .indexRemoved: "Index Removed"
        case .newSettings: "New Settings"
        case .localNameChanged: "Local Name Changed"
        case .deviceConnected: "Device Connected"
        case .deviceDisconnected: "Device Disconnected"
        case .deviceFound: "Device Found"
        case .discovering: "Discovering"
        case .newConnectionParameter: "New Connection Parameter"
        case .advertisingAdded: "Advertising Added"
        case .advertisingRemoved: "Advertising Removed"
        default: "management event 0x\(hex4(rawValue))"
        }
    }
}

/// The controller index of a management packet; 0xFFFF means "not about any controller".
public typealias ControllerIndex = UInt16

extension ControllerIndex {
    public static let nonController: ControllerIndex = 0xFFFF
}

/// Controller settings bits (BlueZ mgmt-api "Read Controller Information", Current_Settings).
public struct ControllerSettings: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let powered = ControllerSettings(rawValue: 1 << 0)
    public static let connectable = ControllerSettings(rawValue: 1 << 1)
    public static let fastConnectable = ControllerSettings(rawValue: 1 << 2)
    public static let discoverable = ControllerSettings(rawValue: 1 << 3)
    public static let bondable = ControllerSettings(rawValue: 1 << 4)
    public static let linkLevelSecurity = ControllerSettings(rawValue: 1 << 5)
    public static let secureSimplePairing = ControllerSettings(rawValue: 1 << 6)
    public static let bredr = ControllerSettings(rawValue: 1 << 7)
    public static let highSpeed = ControllerSettings(rawValue: 1 << 8)
    public static let lowEnergy = ControllerSettings(rawValue: 1 << 9)
    public static let advertising = ControllerSettings(rawValue: 1 << 10)
    public static let secureConnections = ControllerSettings(rawValue: 1 << 11)
    public static let debugKeys = ControllerSettings(rawValue: 1 << 12)
    public static let privacy = ControllerSettings(rawValue: 1 << 13)
    public static let configuration = ControllerSettings(rawValue: 1 << 14)
    public static let staticAddress = ControllerSettings(rawValue: 1 << 15)

    private static let names: [(ControllerSettings, String)] = [
        (.powered, "powered"), (.connectable, "connectable"), (.fastConnectable, "fast-connectable"),
        (.discoverable, "discoverable"), (.bondable, "bondable"), (.linkLevelSecurity, "link-security"),
        (.secureSimplePairing, "ssp"), (.bredr, "br/edr"), (.highSpeed, "hs"), (.lowEnergy, "le"),
        (.advertising, "advertising"), (.secureConnections, "secure-conn"), (.debugKeys, "debug-keys"),
        (.privacy, "privacy"), (.configuration, "configuration"), (.staticAddress, "static-addr"),
    ]

    /// Space-separated names as `btmgmt info` prints them.
    public var description: String { Self.names.filter { contains($0.0) }.map(\.1).joined(separator: " ") }
}

/// Address types to discover (BlueZ mgmt-api "Start Discovery": bit 0 BR/EDR, 1 LE public, 2 LE random).
public struct DiscoveryAddressTypes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bredr = DiscoveryAddressTypes(rawValue: 1 << 0)
    public static let lePublic = DiscoveryAddressTypes(rawValue: 1 << 1)
    public static let leRandom = DiscoveryAddressTypes(rawValue: 1 << 2)
    /// 0x06: what the box scans for (H10s advertise with public or random static addresses).
    public static let le: DiscoveryAddressTypes = [.lePublic, .leRandom]
}

/// Device Found flags (BlueZ mgmt-api "Device Found").
public struct DeviceFoundFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let confirmName = DeviceFoundFlags(rawValue: 1 << 0)
    public static let legacyPairing = DeviceFoundFlags(rawValue: 1 << 1)
    public static let notConnectable = DeviceFoundFlags(rawValue: 1 << 2)
    public static let nameRequestFailed = DeviceFoundFlags(rawValue: 1 << 4)
    public static let scanResponse = DeviceFoundFlags(rawValue: 1 << 5)
}

/// Add Advertising flags (BlueZ mgmt-api "Add Advertising").
public struct AdvertisingFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let connectable = AdvertisingFlags(rawValue: 1 << 0)
    public static let discoverable = AdvertisingFlags(rawValue: 1 << 1)
    public static let limitedDiscoverable = AdvertisingFlags(rawValue: 1 << 2)
    public static let managedFlags = AdvertisingFlags(rawValue: 1 << 3)
    public static let txPower = AdvertisingFlags(rawValue: 1 << 4)
    public static let appearance = AdvertisingFlags(rawValue: 1 << 5)
    public static let localName = AdvertisingFlags(rawValue: 1 << 6)
}

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

/// Set Discoverable values.
public enum DiscoverableMode: UInt8, Hashable, Sendable {
    case off = 0
    case general = 1
    case limited = 2
}

/// Set Advertising values (0x02 is connectable advertising, preferred for a peripheral).
public enum AdvertisingMode: UInt8, Hashable, Sendable {
    case off = 0
    case on = 1
    case connectable = 2
}

/// Read Controller Information's reply.
public struct ControllerInfo: Hashable, Sendable {
    public var address: BluetoothAddress
    public var bluetoothVersion: UInt8
    public var manufacturer: UInt16
    public var supportedSettings: ControllerSettings
    public var currentSettings: ControllerSettings
    public var classOfDevice: UInt32
    public var name: String
    public var shortName: String

    public init(
        address: BluetoothAddress, bluetoothVersion: UInt8, manufacturer: UInt16, supportedSettings: ControllerSettings,
        currentSettings: ControllerSettings, classOfDevice: UInt32, name: String, shortName: String
    ) {
        self.address = address
        self.bluetoothVersion = bluetoothVersion
        self.manufacturer = manufacturer
        self.supportedSettings = supportedSettings
        self.currentSettings = currentSettings
        self.classOfDevice = classOfDevice
        self.name = name
        self.shortName = shortName
    }
}

/// Read Advertising Features' reply.
public struct AdvertisingFeatures: Hashable, Sendable {
    public var supportedFlags: AdvertisingFlags
    public var maxAdvertisingDataLength: UInt8
    public var maxScanResponseLength: UInt8
    public var maxInstances: UInt8
    public var instances: [UInt8]

    public init(
        supportedFlags: AdvertisingFlags, maxAdvertisingDataLength: UInt8, maxScanResponseLength: UInt8,
        maxInstances: UInt8, instances: [UInt8]
    ) {
        self.supportedFlags = supportedFlags
        self.maxAdvertisingDataLength = maxAdvertisingDataLength
        self.maxScanResponseLength = maxScanResponseLength
        self.maxInstances = maxInstances
        self.instances = instances
    }
}

/// One advertising instance for Add Advertising.
public struct AdvertisingInstance: Hashable, Sendable {
    /// 1…254 (0 is reserved).
    public var instance: UInt8
    public var flags: AdvertisingFlags
    /// Seconds per round-robin turn when several instances exist; 0 = default (2 s).
    public var durationSeconds: UInt16
    /// Lifetime in seconds; 0 = until removed.
    public var timeoutSeconds: UInt16
    public var advertisingData: [UInt8]
    public var scanResponse: [UInt8]

    public init(
        instance: UInt8 = 1, flags: AdvertisingFlags, durationSeconds: UInt16 = 0, timeoutSeconds: UInt16 = 0,
        advertisingData: [UInt8], scanResponse: [UInt8] = []
    ) {
        self.instance = instance
        self.flags = flags
        self.durationSeconds = durationSeconds
        self.timeoutSeconds = timeoutSeconds
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
    }
}

/// A Device Found report: one advertisement or scan response seen during discovery.
public struct DeviceFound: Hashable, Sendable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    /// dBm; nil when the kernel reports 127, "not available".
    public var rssi: Int8?
    public var flags: DeviceFoundFlags
    /// The raw advertising (EIR) octets; read them with `advertisingData()`.
    public var eir: [UInt8]

    public init(
        address: BluetoothAddress, addressType: BluetoothAddressType, rssi: Int8?, flags: DeviceFoundFlags,
        eir: [UInt8]
    ) {
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.flags = flags
        self.eir = eir
    }

    /// The advertising data; a malformed block is this report's own problem (the address and
    /// RSSI are still good), so it is read on demand.
    public func advertisingData() throws(AdvertisingDataError) -> AdvertisingData {
        try AdvertisingData(bytes: eir)
    }
}

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

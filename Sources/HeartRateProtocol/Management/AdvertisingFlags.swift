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

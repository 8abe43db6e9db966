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

/// One attribute of a server's database (Vol 3 Part F §3.2).
public struct Attribute: Hashable, Sendable {
    public let handle: UInt16
    public let type: BluetoothUUID
    public var value: [UInt8]
    public let isReadable: Bool
    public let isWritable: Bool
    /// For a service declaration, the service's last handle; for others the attribute's own.
    public let groupEnd: UInt16
}

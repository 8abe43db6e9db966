/// A characteristic descriptor with a fixed, readable value (Vol 3 Part G §3.3.3).
public struct DescriptorDefinition: Hashable, Sendable {
    public var uuid: BluetoothUUID
    public var value: [UInt8]

    public init(_ uuid: BluetoothUUID, value: [UInt8]) {
        self.uuid = uuid
        self.value = value
    }
}

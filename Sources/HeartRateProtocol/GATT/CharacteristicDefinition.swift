/// A characteristic to add to a service.
public struct CharacteristicDefinition: Hashable, Sendable {
    public var uuid: BluetoothUUID
    public var properties: CharacteristicProperties
    public var value: [UInt8]
    /// Descriptors other than the CCCD (which notify or indicate adds), after it, as (type, value).
    public var descriptors: [DescriptorDefinition]

    public init(
        _ uuid: BluetoothUUID, properties: CharacteristicProperties, value: [UInt8] = [],
        descriptors: [DescriptorDefinition] = []
    ) {
        self.uuid = uuid
        self.properties = properties
        self.value = value
        self.descriptors = descriptors
    }
}


/// An attribute database built service by service with contiguous handles from 0x0001, laid out
/// as GATT requires: service declaration, then per characteristic its declaration, its value and
/// its descriptors (Vol 3 Part G §3.1–3.3).
public struct AttributeDatabase: Hashable, Sendable {
    /// Sorted by handle; `attributes[i].handle == i + 1`.
    public private(set) var attributes: [Attribute] = []

    public init() {}

    public var lastHandle: UInt16 { UInt16(attributes.count) }

    /// Adds a service and its characteristics; returns the characteristics' handles in order.
    /// `groupEnd` declares a service end beyond its last attribute (a Polar H10's last service
    /// runs to 0xFFFF); the database's later services must then be none.
    @discardableResult
    public mutating func addService(
        _ uuid: BluetoothUUID, primary: Bool = true, characteristics: [CharacteristicDefinition],
        groupEnd: UInt16? = nil
    ) -> [CharacteristicHandles] {
        let start = UInt16(attributes.count + 1)
        var size = 1
        for c in characteristics {
            size += 2 + (c.properties.isDisjoint(with: [.notify, .indicate]) ? 0 : 1) + c.descriptors.count
        }
        let end = max(groupEnd ?? 0, start + UInt16(size - 1))
        append(primary ? .primaryService : .secondaryService, uuid.attBytes, readable: true, groupEnd: end)
        var handles: [CharacteristicHandles] = []
        for c in characteristics {
            let declaration = lastHandle + 1
            let valueHandle = declaration + 1
            var declarationValue: [UInt8] = [c.properties.rawValue]
            declarationValue.appendLE(valueHandle)
            declarationValue += c.uuid.attBytes
            append(.characteristic, declarationValue, readable: true)
            append(
                c.uuid, c.value, readable: c.properties.contains(.read),
                writable: !c.properties.isDisjoint(with: [.write, .writeWithoutResponse]))
            var cccd: UInt16?
            if !c.properties.isDisjoint(with: [.notify, .indicate]) {
                append(.clientCharacteristicConfiguration, [0, 0], readable: true, writable: true)
                cccd = lastHandle
            }
            for d in c.descriptors { append(d.uuid, d.value, readable: true) }
            handles.append(CharacteristicHandles(declaration: declaration, value: valueHandle, cccd: cccd))
        }
        return handles
    }

    private mutating func append(
        _ type: BluetoothUUID, _ value: [UInt8], readable: Bool, writable: Bool = false, groupEnd: UInt16? = nil
    ) {
        let handle = UInt16(attributes.count + 1)
        attributes.append(
            Attribute(
                handle: handle, type: type, value: value, isReadable: readable, isWritable: writable,
                groupEnd: groupEnd ?? handle))
    }

    public func attribute(_ handle: UInt16) -> Attribute? {
        guard handle >= 1, Int(handle) <= attributes.count else { return nil }
        return attributes[Int(handle) - 1]
    }

    public mutating func setValue(_ value: [UInt8], at handle: UInt16) {
        guard handle >= 1, Int(handle) <= attributes.count else { return }
        attributes[Int(handle) - 1].value = value
    }

    /// Attributes with handles in `start...end` (clamped to the database).
    func range(_ start: UInt16, _ end: UInt16) -> ArraySlice<Attribute> {
        let lo = max(Int(start), 1)
        let hi = min(Int(end), attributes.count)
        guard lo <= hi else { return [] }
        return attributes[(lo - 1)..<hi]
    }

    /// The characteristic properties declared for the value at `valueHandle`.
    func properties(ofValue valueHandle: UInt16) -> CharacteristicProperties? {
        guard valueHandle > 1, let declaration = attribute(valueHandle - 1), declaration.type == .characteristic,
            declaration.value.count >= 3
        else { return nil }
        return CharacteristicProperties(rawValue: declaration.value[0])
    }
}

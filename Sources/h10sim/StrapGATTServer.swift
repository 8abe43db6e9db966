import HeartRateProtocol

/// The virtual strap's GATT database and ATT server, sans I/O: one request PDU in, its answer out
/// (Bluetooth Core 5.3 Vol 3 Part F §3.4, Part G §3.1–3.3). Laid out like a Polar H10's:
///
///     0x0001 GAP 0x1800: Device Name 0x0003, Appearance 0x0005 (heart rate belt)
///     0x0006 GATT 0x1801
///     0x0007 Heart Rate 0x180D: Measurement 0x0009 (notify) + CCCD 0x000A, Body Sensor Location 0x000C
///     0x000D Battery 0x180F: Battery Level 0x000F (read, notify) + CCCD 0x0010
///     0x0011 Device Information 0x180A: Manufacturer 0x0013, Model 0x0015, Firmware Revision 0x0017
struct StrapGATTServer {
    struct Attribute {
        var handle: UInt16
        var type: BluetoothUUID
        var value: [UInt8]
        var readable: Bool
        var writable: Bool
    }

    static let mtu: UInt16 = 23
    static let measurementHandle: UInt16 = 0x0009
    static let measurementCCCD: UInt16 = 0x000A
    static let batteryHandle: UInt16 = 0x000F
    static let batteryCCCD: UInt16 = 0x0010

    private(set) var attributes: [Attribute] = []
    /// Per connection: the client's configuration of the HR Measurement (bit 0 notifications).
    private(set) var measurementConfiguration: UInt16 = 0

    var notificationsEnabled: Bool { measurementConfiguration & 0x0001 != 0 }

    init(name: String, battery: UInt8, firmware: String) {
        var handle: UInt16 = 0
        func add(_ type: BluetoothUUID, _ value: [UInt8], read: Bool = true, write: Bool = false) {
            handle += 1
            attributes.append(Attribute(handle: handle, type: type, value: value, readable: read, writable: write))
        }
        func service(_ uuid: BluetoothUUID) { add(.primaryService, uuid.attBytes) }
        func characteristic(_ uuid: BluetoothUUID, properties: UInt8, value: [UInt8], read: Bool = true) {
            let valueHandle = handle + 2
            add(.characteristic, [properties, UInt8(valueHandle & 0xFF), UInt8(valueHandle >> 8)] + uuid.attBytes)
            add(uuid, value, read: read)
        }
        let read: UInt8 = 0x02, notify: UInt8 = 0x10
        service(.genericAccess)
        characteristic(.deviceName, properties: read, value: Array(name.utf8))
        characteristic(.appearance, properties: read, value: [0x41, 0x03])  // 0x0341 heart rate belt
        service(.genericAttribute)
        service(.heartRate)
        characteristic(.heartRateMeasurement, properties: notify, value: [], read: false)
        add(.clientCharacteristicConfiguration, [0x00, 0x00], write: true)
        characteristic(.bodySensorLocation, properties: read, value: [0x01])  // chest
        service(.battery)
        characteristic(.batteryLevel, properties: read | notify, value: [min(battery, 100)])
        add(.clientCharacteristicConfiguration, [0x00, 0x00], write: true)
        service(.deviceInformation)
        characteristic(.manufacturerNameString, properties: read, value: Array("Polar Electro Oy".utf8))
        characteristic(.modelNumberString, properties: read, value: Array("H10".utf8))
        characteristic(.firmwareRevisionString, properties: read, value: Array(firmware.utf8))
        precondition(attributes[Int(Self.measurementHandle) - 1].type == .heartRateMeasurement)
        precondition(attributes[Int(Self.batteryCCCD) - 1].type == .clientCharacteristicConfiguration)
    }

    /// A new connection: client configurations start cleared (no bonding, Part G §3.3.3.3).
    mutating func connectionOpened() {
        measurementConfiguration = 0
        setValue(Self.measurementCCCD, [0, 0])
        setValue(Self.batteryCCCD, [0, 0])
    }

    /// The answer to one PDU from the client, or nil for those that get none (commands,
    /// confirmations, responses).
    mutating func handle(_ bytes: [UInt8]) -> [UInt8]? {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(bytes: bytes)
        } catch {
            guard let opcode = error.opcode, opcode.isRequest else { return nil }
            return ATTPDU.errorResponse(request: opcode, handle: 0, error: .invalidPDU).encoded()
        }
        return answer(pdu)?.encoded()
    }

    private mutating func answer(_ pdu: ATTPDU) -> ATTPDU? {
        let mtu = Int(Self.mtu)
        switch pdu {
        case .exchangeMTURequest:
            return .exchangeMTUResponse(serverRxMTU: Self.mtu)
        case .findInformationRequest(let start, let end):
            if let error = rangeError(pdu.opcode, start, end) { return error }
            let found = inRange(start, end).prefix((mtu - 2) / 4)
            guard !found.isEmpty else { return notFound(pdu.opcode, start) }
            return .findInformationResponse(found.map { .init(handle: $0.handle, type: $0.type) })
        case .findByTypeValueRequest(let start, let end, let type, let value):
            if let error = rangeError(pdu.opcode, start, end) { return error }
            let found = inRange(start, end).filter { $0.type == BluetoothUUID(type) && $0.value == value }
                .prefix((mtu - 1) / 4)
            guard !found.isEmpty else { return notFound(pdu.opcode, start) }
            return .findByTypeValueResponse(found.map { .init(found: $0.handle, groupEnd: groupEnd(of: $0.handle)) })
        case .readByTypeRequest(let start, let end, let type):
            if let error = rangeError(pdu.opcode, start, end) { return error }
            let matching = inRange(start, end).filter { $0.type == type }
            guard let first = matching.first else { return notFound(pdu.opcode, start) }
            guard first.readable else { return .errorResponse(request: pdu.opcode, handle: first.handle, error: .readNotPermitted) }
            // One value length per response (§3.4.4.2), cut to fit.
            let length = min(first.value.count, mtu - 4, 253)
            let entries = matching.prefix { $0.readable && min($0.value.count, mtu - 4, 253) == length }
                .prefix((mtu - 2) / (2 + length))
            return .readByTypeResponse(entries.map { .init(handle: $0.handle, value: Array($0.value.prefix(length))) })
        case .readByGroupTypeRequest(let start, let end, let type):
            if let error = rangeError(pdu.opcode, start, end) { return error }
            guard type == .primaryService || type == .secondaryService else {
                return .errorResponse(request: pdu.opcode, handle: start, error: .unsupportedGroupType)
            }
            let groups = inRange(start, end).filter { $0.type == type }
            guard let first = groups.first else { return notFound(pdu.opcode, start) }
            let entries = groups.prefix { $0.value.count == first.value.count }.prefix((mtu - 2) / (4 + first.value.count))
            return .readByGroupTypeResponse(
                entries.map { .init(handle: $0.handle, groupEnd: groupEnd(of: $0.handle), value: $0.value) })
        case .readRequest(let handle):
            guard let attribute = attribute(handle) else { return invalid(pdu.opcode, handle) }
            guard attribute.readable else { return .errorResponse(request: pdu.opcode, handle: handle, error: .readNotPermitted) }
            return .readResponse(value: Array(attribute.value.prefix(mtu - 1)))
        case .readBlobRequest(let handle, let offset):
            guard let attribute = attribute(handle) else { return invalid(pdu.opcode, handle) }
            guard attribute.readable else { return .errorResponse(request: pdu.opcode, handle: handle, error: .readNotPermitted) }
            guard Int(offset) <= attribute.value.count else {
                return .errorResponse(request: pdu.opcode, handle: handle, error: .invalidOffset)
            }
            return .readBlobResponse(value: Array(attribute.value[Int(offset)...].prefix(mtu - 1)))
        case .writeRequest(let handle, let value):
            if let error = write(handle, value, opcode: pdu.opcode) { return error }
            return .writeResponse
        case .writeCommand(let handle, let value):
            _ = write(handle, value, opcode: pdu.opcode)
            return nil
        case .other(let opcode, _):
            return opcode.isRequest ? .errorResponse(request: opcode, handle: 0, error: .requestNotSupported) : nil
        default:
            return nil  // responses, confirmations, notifications: nothing to answer
        }
    }

    private mutating func write(_ handle: UInt16, _ value: [UInt8], opcode: ATTOpcode) -> ATTPDU? {
        guard let attribute = attribute(handle) else { return invalid(opcode, handle) }
        guard attribute.writable else { return .errorResponse(request: opcode, handle: handle, error: .writeNotPermitted) }
        guard value.count == 2 else {
            return .errorResponse(request: opcode, handle: handle, error: .invalidAttributeValueLength)
        }
        setValue(handle, value)
        if handle == Self.measurementCCCD { measurementConfiguration = UInt16(value[0]) | UInt16(value[1]) << 8 }
        return nil
    }

    // MARK: Helpers

    private func attribute(_ handle: UInt16) -> Attribute? {
        handle >= 1 && Int(handle) <= attributes.count ? attributes[Int(handle) - 1] : nil
    }

    private mutating func setValue(_ handle: UInt16, _ value: [UInt8]) { attributes[Int(handle) - 1].value = value }

    private func inRange(_ start: UInt16, _ end: UInt16) -> ArraySlice<Attribute> {
        let from = Int(start) - 1
        let to = min(Int(end), attributes.count)
        return from < to ? attributes[from..<to] : []
    }

    /// The last handle of the service starting at `handle`.
    private func groupEnd(of handle: UInt16) -> UInt16 {
        let next = attributes.first { $0.handle > handle && ($0.type == .primaryService || $0.type == .secondaryService) }
        return next.map { $0.handle - 1 } ?? UInt16(attributes.count)
    }

    /// §3.4.1.1: a start of 0 or a start after the end is an Invalid Handle.
    private func rangeError(_ opcode: ATTOpcode, _ start: UInt16, _ end: UInt16) -> ATTPDU? {
        start == 0 || start > end ? .errorResponse(request: opcode, handle: start, error: .invalidHandle) : nil
    }

    private func notFound(_ opcode: ATTOpcode, _ handle: UInt16) -> ATTPDU {
        .errorResponse(request: opcode, handle: handle, error: .attributeNotFound)
    }

    private func invalid(_ opcode: ATTOpcode, _ handle: UInt16) -> ATTPDU {
        .errorResponse(request: opcode, handle: handle, error: .invalidHandle)
    }
}

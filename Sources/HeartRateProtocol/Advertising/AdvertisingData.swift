/// Advertising data, scan response data or an EIR block: a sequence of AD structures, each
/// `length (1 octet) | type (1 octet) | data (length − 1 octets)` (Bluetooth Core 5.3 Vol 3 Part C
/// §11). A zero length octet ends the significant part; what follows is padding.
public struct AdvertisingData: Hashable, Sendable {
    public var fields: [AdvertisingField]

    public init(fields: [AdvertisingField]) { self.fields = fields }

    /// Parses a whole block. A structure that runs past the end, or a known type whose data has
    /// an impossible length, rejects the block with the offset of the offending structure.
    public init(bytes: [UInt8]) throws(AdvertisingDataError) {
        var reader = ByteReader(bytes)
        var fields: [AdvertisingField] = []
        while let length = reader.u8() {
            let start = reader.offset - 1
            if length == 0 { break }
            guard let type = reader.u8(), let data = reader.take(Int(length) - 1) else {
                throw .truncated(offset: start, declared: Int(length), available: bytes.count - start - 1)
            }
            fields.append(try Self.field(type: type, data: data, offset: start))
        }
        self.fields = fields
    }

    private static func field(type: UInt8, data: [UInt8], offset: Int) throws(AdvertisingDataError)
        -> AdvertisingField
    {
        func require(_ ok: Bool) throws(AdvertisingDataError) {
            if !ok { throw .badFieldLength(offset: offset, type: type, length: data.count) }
        }
        var r = ByteReader(data)
        switch type {
        case 0x01:
            // Supplement Part A §1.3: flags are one octet (later octets, if any, are reserved zeros).
            try require(data.count >= 1)
            return .flags(data[0])
        case 0x02, 0x03:
            try require(data.count % 2 == 0)
            var list: [UInt16] = []
            while let u = r.u16() { list.append(u) }
            return .serviceUUIDs16(list, complete: type == 0x03)
        case 0x04, 0x05:
            try require(data.count % 4 == 0)
            var list: [UInt32] = []
            while let u = r.u32() { list.append(u) }
            return .serviceUUIDs32(list, complete: type == 0x05)
        case 0x06, 0x07:
            try require(data.count % 16 == 0)
            var list: [BluetoothUUID] = []
            while let chunk = r.take(16), let u = BluetoothUUID(littleEndian: chunk) { list.append(u) }
            return .serviceUUIDs128(list, complete: type == 0x07)
        case 0x08, 0x09:
            return .localName(bytes: data, complete: type == 0x09)
        case 0x0A:
            try require(data.count == 1)
            return .txPowerLevel(Int8(bitPattern: data[0]))
        case 0x19:
            try require(data.count == 2)
            return .appearance(r.u16() ?? 0)
        case 0x16:
            try require(data.count >= 2)
            return .serviceData16(uuid: r.u16() ?? 0, data: r.rest())
        case 0xFF:
            try require(data.count >= 2)
            return .manufacturerData(companyID: r.u16() ?? 0, data: r.rest())
        default:
            return .other(type: type, data: data)
        }
    }

    /// The wire form. A field longer than 254 data octets cannot be expressed and is a
    /// programming error in the caller.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            let data = field.data
            precondition(data.count <= 254, "an AD structure holds at most 254 data octets")
            out.append(UInt8(data.count + 1))
            out.append(field.type)
            out += data
        }
        return out
    }

    /// The advertising data followed by its scan response (names often arrive only in the latter).
    public func merged(with other: AdvertisingData) -> AdvertisingData {
        AdvertisingData(fields: fields + other.fields)
    }
}

extension AdvertisingData {
    public var flags: UInt8? {
        for case .flags(let f) in fields { return f }
        return nil
    }

    /// The complete local name if present, else the shortened one; invalid UTF-8 is replaced
    /// and trailing NULs dropped.
    public var localName: String? {
        var shortened: [UInt8]?
        for case .localName(let name, let complete) in fields {
            if complete { return peerText(name) }
            if shortened == nil { shortened = name }
        }
        return shortened.map(peerText)
    }

    /// Every service UUID listed, complete or incomplete lists alike, in order of appearance.
    public var serviceUUIDs: [BluetoothUUID] {
        var out: [BluetoothUUID] = []
        for field in fields {
            switch field {
            case .serviceUUIDs16(let list, _): out += list.map { BluetoothUUID($0) }
            case .serviceUUIDs32(let list, _): out += list.map { BluetoothUUID(uuid32: $0) }
            case .serviceUUIDs128(let list, _): out += list
            default: continue
            }
        }
        return out
    }

    public var txPowerLevel: Int8? {
        for case .txPowerLevel(let dBm) in fields { return dBm }
        return nil
    }

    public var appearance: UInt16? {
        for case .appearance(let a) in fields { return a }
        return nil
    }

    public var manufacturerData: [(companyID: UInt16, data: [UInt8])] {
        var out: [(companyID: UInt16, data: [UInt8])] = []
        for case .manufacturerData(let company, let data) in fields { out.append((company, data)) }
        return out
    }
}

/// Why an advertising block was rejected.
public enum AdvertisingDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The structure at `offset` declares more octets than the block holds.
    case truncated(offset: Int, declared: Int, available: Int)
    /// A known AD type whose data length is impossible for it (e.g. an odd 16-bit UUID list).
    case badFieldLength(offset: Int, type: UInt8, length: Int)

    public var description: String {
        switch self {
        case .truncated(let offset, let declared, let available):
            "advertising structure at byte \(offset) declares \(declared) bytes but only \(available) follow"
        case .badFieldLength(let offset, let type, let length):
            "advertising structure at byte \(offset) of type 0x\(hex2(type)) has an impossible length \(length)"
        }
    }
}

/// One AD structure of advertising or extended inquiry response data (Bluetooth Core
/// Specification Supplement v11 Part A §1; type numbers from Assigned Numbers §2.3).
public enum AdvertisingField: Hashable, Sendable {
    /// Flags (0x01), Supplement Part A §1.3: bit 0 LE Limited, bit 1 LE General Discoverable,
    /// bit 2 BR/EDR not supported.
    case flags(UInt8)
    /// 16-bit service UUIDs (0x02 incomplete, 0x03 complete), §1.1.
    case serviceUUIDs16([UInt16], complete: Bool)
    /// 32-bit service UUIDs (0x04 incomplete, 0x05 complete), §1.1.
    case serviceUUIDs32([UInt32], complete: Bool)
    /// 128-bit service UUIDs (0x06 incomplete, 0x07 complete), §1.1.
    case serviceUUIDs128([BluetoothUUID], complete: Bool)
    /// Local name (0x08 shortened, 0x09 complete), §1.2, as the octets received (UTF-8 by the
    /// spec, but a peer may send anything; `AdvertisingData.localName` reads it as text).
    case localName(bytes: [UInt8], complete: Bool)
    /// TX Power Level (0x0A) in dBm, §1.5.
    case txPowerLevel(Int8)
    /// Appearance (0x19), §1.12.
    case appearance(UInt16)
    /// Service Data – 16-bit UUID (0x16), §1.11.
    case serviceData16(uuid: UInt16, data: [UInt8])
    /// Manufacturer Specific Data (0xFF), §1.4: company identifier, then the maker's octets.
    case manufacturerData(companyID: UInt16, data: [UInt8])
    /// Any other AD type, kept as received.
    case other(type: UInt8, data: [UInt8])

    /// A local name field from text.
    public static func localName(_ text: String, complete: Bool = true) -> AdvertisingField {
        .localName(bytes: Array(text.utf8), complete: complete)
    }

    /// The AD type octet this field travels under.
    public var type: UInt8 {
        switch self {
        case .flags: 0x01
        case .serviceUUIDs16(_, let complete): complete ? 0x03 : 0x02
        case .serviceUUIDs32(_, let complete): complete ? 0x05 : 0x04
        case .serviceUUIDs128(_, let complete): complete ? 0x07 : 0x06
        case .localName(_, let complete): complete ? 0x09 : 0x08
        case .txPowerLevel: 0x0A
        case .appearance: 0x19
        case .serviceData16: 0x16
        case .manufacturerData: 0xFF
        case .other(let type, _): type
        }
    }

    /// The data octets after the type.
    public var data: [UInt8] {
        var out: [UInt8] = []
        switch self {
        case .flags(let f): out = [f]
        case .serviceUUIDs16(let list, _): for u in list { out.appendLE(u) }
        case .serviceUUIDs32(let list, _): for u in list { out.appendLE(u) }
        case .serviceUUIDs128(let list, _): for u in list { out += u.full128Bytes }
        case .localName(let name, _): out = name
        case .txPowerLevel(let dBm): out = [UInt8(bitPattern: dBm)]
        case .appearance(let a): out.appendLE(a)
        case .serviceData16(let uuid, let data):
            out.appendLE(uuid)
            out += data
        case .manufacturerData(let company, let data):
            out.appendLE(company)
            out += data
        case .other(_, let data): out = data
        }
        return out
    }
}

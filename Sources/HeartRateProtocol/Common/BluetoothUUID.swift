/// A Bluetooth UUID, held in its canonical 128-bit form so that a 16-bit assigned number and the
/// same UUID written out in full compare equal (Bluetooth Core 5.3 Vol 3 Part B §2.5.1:
/// `uuid128 = uuid16 × 2^96 + Bluetooth_Base_UUID`).
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible {
    /// 00000000-0000-1000-8000-00805F9B34FB.
    public static let baseValue: UInt128 = 0x0000_0000_0000_1000_8000_0080_5F9B_34FB

    public let value: UInt128

    public init(value: UInt128) { self.value = value }

    /// A 16-bit assigned number such as 0x180D (Heart Rate service).
    public init(_ uuid16: UInt16) { self.value = UInt128(uuid16) << 96 | Self.baseValue }

    /// A 32-bit alias (advertising data may carry these; ATT never does).
    public init(uuid32: UInt32) { self.value = UInt128(uuid32) << 96 | Self.baseValue }

    /// The 2-, 4- or 16-octet little-endian wire form; nil for any other length.
    public init?(littleEndian bytes: [UInt8]) {
        switch bytes.count {
        case 2: self.init(UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        case 4:
            let v = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
            self.init(uuid32: v)
        case 16:
            var v: UInt128 = 0
            for byte in bytes.reversed() { v = v << 8 | UInt128(byte) }
            self.init(value: v)
        default: return nil
        }
    }

    /// The 16-bit assigned number, when this UUID is one.
    public var uuid16: UInt16? {
        guard value & ((1 << 96) - 1) == Self.baseValue, value >> 112 == 0 else { return nil }
        return UInt16(truncatingIfNeeded: value >> 96)
    }

    /// The shortest form ATT allows: 2 octets for an assigned number, else 16 (Vol 3 Part F §3.2.1).
    public var attBytes: [UInt8] {
        if let short = uuid16 { return [UInt8(short & 0xFF), UInt8(short >> 8)] }
        return full128Bytes
    }

    /// All 16 octets, little-endian.
    public var full128Bytes: [UInt8] {
        (0..<16).map { UInt8(truncatingIfNeeded: value >> (8 * UInt128($0))) }
    }

    public var description: String {
        if let short = uuid16 { return "0x" + hex4(short) }
        let b = full128Bytes.reversed().map(hex2).joined()
        let parts = [
            b.prefix(8), b.dropFirst(8).prefix(4), b.dropFirst(12).prefix(4), b.dropFirst(16).prefix(4),
            b.dropFirst(20),
        ]
        return parts.joined(separator: "-").lowercased()
    }
}

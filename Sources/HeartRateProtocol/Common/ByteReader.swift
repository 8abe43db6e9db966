/// A bounds-checked little-endian cursor over one received packet. Every read yields a value or
/// nil when the packet is too short, so decoders turn shortfalls into their own typed errors
/// instead of trapping (Bluetooth Core 5.3 Vol 1 Part E §2.2: multi-octet fields are little-endian).
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func u24() -> UInt32? {
        guard remaining >= 3 else { return nil }
        defer { offset += 3 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
    }

    mutating func u32() -> UInt32? {
        guard let low = u16(), let high = u16() else { return nil }
        return UInt32(low) | UInt32(high) << 16
    }

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return isAtEnd ? [] : Array(bytes[offset...])
    }
}

extension Array where Element == UInt8 {
    mutating func appendLE(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func appendLE(_ value: UInt32) {
        appendLE(UInt16(truncatingIfNeeded: value))
        appendLE(UInt16(truncatingIfNeeded: value >> 16))
    }
}

/// Text from a peer: UTF-8 with invalid sequences replaced, trailing NULs dropped (names padded
/// with zeros, as the management interface does, read the same as unpadded ones).
func peerText(_ bytes: [UInt8]) -> String {
    var end = bytes.count
    while end > 0 && bytes[end - 1] == 0 { end -= 1 }
    return String(decoding: bytes[0..<end], as: UTF8.self)
}

/// Two-digit upper-case hex of a byte, for descriptions (no Foundation `String(format:)`).
func hex2(_ byte: UInt8) -> String {
    func digit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x37 + v }
    return String(decoding: [digit(byte >> 4), digit(byte & 0x0F)], as: UTF8.self)
}

func hex4(_ value: UInt16) -> String { hex2(UInt8(value >> 8)) + hex2(UInt8(value & 0xFF)) }

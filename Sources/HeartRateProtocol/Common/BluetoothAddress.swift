/// A 48-bit device address. The wire carries it little-endian; people read it most significant
/// octet first ("A0:9E:1A:12:34:56").
public struct BluetoothAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address as a number: octet 0 on the wire is the low byte.
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue & 0xFFFF_FFFF_FFFF }

    /// Six octets in wire (little-endian) order; nil for any other count.
    public init?(littleEndian bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        var v: UInt64 = 0
        for byte in bytes.reversed() { v = v << 8 | UInt64(byte) }
        self.rawValue = v
    }

    /// Parses "AA:BB:CC:DD:EE:FF" (either case); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var v: UInt64 = 0
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            v = v << 8 | UInt64(byte)
        }
        self.rawValue = v
    }

    public var littleEndianBytes: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: rawValue >> (8 * UInt64($0))) } }

    /// A random address whose two top bits are 1 is a static one (Bluetooth Core 5.3 Vol 6 Part B
    /// §1.3.2.1); H10 firmware before mid-2024 advertises with one.
    public var isStaticRandomForm: Bool { rawValue >> 46 == 0b11 }

    /// The type to try when nothing says which: random for the static random form, else public (H10
    /// firmware before mid-2024 uses a random static address, later firmware Polar's public one).
    public var guessedType: BluetoothAddressType { isStaticRandomForm ? .leRandom : .lePublic }

    public var description: String { littleEndianBytes.reversed().map(hex2).joined(separator: ":") }
}

/// How an address is to be interpreted, as the management interface and L2CAP sockets number it
/// (BlueZ mgmt-api "Address_Type"; `BDADDR_BREDR`, `BDADDR_LE_PUBLIC`, `BDADDR_LE_RANDOM`).
public enum BluetoothAddressType: UInt8, Hashable, Sendable, CustomStringConvertible {
    case bredr = 0
    case lePublic = 1
    case leRandom = 2

    public var description: String {
        switch self {
        case .bredr: "BR/EDR"
        case .lePublic: "LE public"
        case .leRandom: "LE random"
        }
    }
}

extension BluetoothAddressType {
    /// The words for the LE types in the configuration, the stored pairing, `--address-type` and the control
    /// protocol.
    public static let words = ["public", "random"]

    /// "public" or "random"; nil for any other text.
    public init?(word: String) {
        switch word {
        case "public": self = .lePublic
        case "random": self = .leRandom
        default: return nil
        }
    }

    /// "random" for an LE random address, else "public".
    public var word: String { self == .leRandom ? "random" : "public" }
}

/// One packet on the kernel's management channel (BlueZ doc/mgmt-api.txt "Packet Structures"):
/// opcode or event code (2 octets LE), controller index (2), parameter length (2), parameters.
///
/// Only the framing and the few parameter layouts this edge needs live here; fields are read where
/// they are used, by offset, with bounds checks.
struct ManagementPacket: Hashable {
    var code: UInt16
    var index: UInt16
    var parameters: [UInt8]

    /// The index meaning "no controller" (commands about the whole interface).
    static let noIndex: UInt16 = 0xFFFF

    init(code: UInt16, index: UInt16, parameters: [UInt8] = []) {
        self.code = code
        self.index = index
        self.parameters = parameters
    }

    /// Decodes one packet; nil when the header is short or the length disagrees with the bytes.
    init?(bytes: [UInt8]) {
        guard bytes.count >= 6 else { return nil }
        let length = Int(bytes.u16(at: 4))
        guard bytes.count == 6 + length else { return nil }
        code = bytes.u16(at: 0)
        index = bytes.u16(at: 2)
        parameters = Array(bytes[6...])
    }

    var encoded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(6 + parameters.count)
        out.appendLE(code)
        out.appendLE(index)
        out.appendLE(UInt16(parameters.count))
        out += parameters
        return out
    }
}

/// Command opcodes (mgmt-api.txt).
enum ManagementOpcode {
    static let readControllerIndexList: UInt16 = 0x0003
    static let readControllerInformation: UInt16 = 0x0004
    static let setPowered: UInt16 = 0x0005
    static let setLowEnergy: UInt16 = 0x000D
    static let setLocalName: UInt16 = 0x000F
    static let disconnect: UInt16 = 0x0014
    static let startDiscovery: UInt16 = 0x0023
    static let stopDiscovery: UInt16 = 0x0024
    static let addAdvertising: UInt16 = 0x003E
    static let removeAdvertising: UInt16 = 0x003F

    static func name(_ opcode: UInt16) -> String {
        switch opcode {
        case readControllerIndexList: "Read Controller Index List"
        case readControllerInformation: "Read Controller Information"
        case setPowered: "Set Powered"
        case setLowEnergy: "Set Low Energy"
        case setLocalName: "Set Local Name"
        case disconnect: "Disconnect"
        case startDiscovery: "Start Discovery"
        case stopDiscovery: "Stop Discovery"
        case addAdvertising: "Add Advertising"
        case removeAdvertising: "Remove Advertising"
        default: "command 0x" + String(opcode, radix: 16)
        }
    }
}

/// Event codes (mgmt-api.txt).
enum ManagementEventCode {
    static let commandComplete: UInt16 = 0x0001
    static let commandStatus: UInt16 = 0x0002
    static let indexAdded: UInt16 = 0x0004
    static let indexRemoved: UInt16 = 0x0005
    static let newSettings: UInt16 = 0x0006
    static let deviceConnected: UInt16 = 0x000B
    static let deviceDisconnected: UInt16 = 0x000C
    static let deviceFound: UInt16 = 0x0012
    static let discovering: UInt16 = 0x0013
}

/// Status codes the edge acts on (mgmt-api.txt "Command Complete Event").
enum ManagementStatus {
    static let success: UInt8 = 0x00
    static let busy: UInt8 = 0x0A
    static let notPowered: UInt8 = 0x0F
    static let invalidIndex: UInt8 = 0x11
    static let rfkilled: UInt8 = 0x12
    static let permissionDenied: UInt8 = 0x14
}

extension [UInt8] {
    func u16(at offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    func u32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16
            | UInt32(self[offset + 3]) << 24
    }
    mutating func appendLE(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }
    mutating func appendLE(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}

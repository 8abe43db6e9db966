/// A management command the box or the virtual strap sends (BlueZ mgmt-api "Commands").
/// Packet: opcode (2) | controller index (2) | parameter length (2) | parameters, little-endian.
public enum MgmtCommand: Hashable, Sendable {
    case readVersion
    case readControllerIndexList
    case readControllerInfo
    case setPowered(Bool)
    case setDiscoverable(DiscoverableMode, timeoutSeconds: UInt16)
    case setConnectable(Bool)
    case setBondable(Bool)
    case setLowEnergy(Bool)
    /// Name up to 248 UTF-8 octets, short name up to 10 (each field ends with a NUL).
    case setLocalName(name: String, shortName: String)
    case disconnect(BluetoothAddress, BluetoothAddressType)
    case startDiscovery(DiscoveryAddressTypes)
    case stopDiscovery(DiscoveryAddressTypes)
    case setAdvertising(AdvertisingMode)
    /// A static random address for LE (Core 5.3 Vol 6 Part B §1.3.2.1); only while powered off.
    case setStaticAddress(BluetoothAddress)
    case readAdvertisingFeatures
    case addAdvertising(AdvertisingInstance)
    /// Instance 0 removes every instance.
    case removeAdvertising(instance: UInt8)
    case setAppearance(UInt16)
    /// Per-device LE connection parameters the kernel uses when it next connects to each device; it
    /// also takes a request from that device up to their max. Replaces every entry the kernel holds
    /// for devices it does not auto-connect to (net/bluetooth/mgmt.c `load_conn_param`).
    case loadConnectionParameters([DeviceConnectionParameters])

    public static let nameFieldLength = 249
    public static let shortNameFieldLength = 11

    public var opcode: MgmtOpcode {
        switch self {
        case .readVersion: .readVersion
        case .readControllerIndexList: .readControllerIndexList
        case .readControllerInfo: .readControllerInfo
        case .setPowered: .setPowered
        case .setDiscoverable: .setDiscoverable
        case .setConnectable: .setConnectable
        case .setBondable: .setBondable
        case .setLowEnergy: .setLowEnergy
        case .setLocalName: .setLocalName
        case .disconnect: .disconnect
        case .startDiscovery: .startDiscovery
        case .stopDiscovery: .stopDiscovery
        case .setAdvertising: .setAdvertising
        case .setStaticAddress: .setStaticAddress
        case .readAdvertisingFeatures: .readAdvertisingFeatures
        case .addAdvertising: .addAdvertising
        case .removeAdvertising: .removeAdvertising
        case .setAppearance: .setAppearance
        case .loadConnectionParameters: .loadConnectionParameters
        }
    }

    /// The command's parameters.
    public var parameters: [UInt8] {
        var p: [UInt8] = []
        switch self {
        case .readVersion, .readControllerIndexList, .readControllerInfo, .readAdvertisingFeatures:
            break
        case .setPowered(let on), .setConnectable(let on), .setBondable(let on), .setLowEnergy(let on):
            p.append(on ? 1 : 0)
        case .setDiscoverable(let mode, let timeout):
            p.append(mode.rawValue)
            p.appendLE(timeout)
        case .setLocalName(let name, let shortName):
            p += nulPadded(name, field: Self.nameFieldLength)
            p += nulPadded(shortName, field: Self.shortNameFieldLength)
        case .disconnect(let address, let type):
            p += address.littleEndianBytes
            p.append(type.rawValue)
        case .startDiscovery(let types), .stopDiscovery(let types):
            p.append(types.rawValue)
        case .setAdvertising(let mode):
            p.append(mode.rawValue)
        case .setStaticAddress(let address):
            p += address.littleEndianBytes
        case .addAdvertising(let a):
            p.append(a.instance)
            p.appendLE(a.flags.rawValue)
            p.appendLE(a.durationSeconds)
            p.appendLE(a.timeoutSeconds)
            // At most 255 octets each; the kernel refuses more than the controller's 31 anyway.
            let adv = a.advertisingData.prefix(255)
            let rsp = a.scanResponse.prefix(255)
            p.append(UInt8(adv.count))
            p.append(UInt8(rsp.count))
            p += adv
            p += rsp
        case .removeAdvertising(let instance):
            p.append(instance)
        case .setAppearance(let appearance):
            p.appendLE(appearance)
        case .loadConnectionParameters(let entries):
            // Param_Count (2), then 15 octets each; the count's range bounds the list.
            let list = entries.prefix(Int(UInt16.max) / DeviceConnectionParameters.encodedLength)
            p.appendLE(UInt16(list.count))
            for entry in list {
                p += entry.address.littleEndianBytes
                p.append(entry.addressType.rawValue)
                entry.parameters.append(to: &p)
            }
        }
        return p
    }

    /// The whole packet for controller `index` (`.nonController` for the version and index list).
    public func encoded(index: ControllerIndex) -> [UInt8] {
        let p = parameters
        var out: [UInt8] = []
        out.reserveCapacity(6 + p.count)
        out.appendLE(opcode.rawValue)
        out.appendLE(index)
        out.appendLE(UInt16(p.count))
        return out + p
    }
}

/// `text` as UTF-8 cut on a character boundary to leave room for the NUL, then NUL-padded to `field`.
func nulPadded(_ text: String, field: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for scalar in text.unicodeScalars {
        let encoded = Array(String(scalar).utf8)
        if bytes.count + encoded.count > field - 1 { break }
        bytes += encoded
    }
    return bytes + [UInt8](repeating: 0, count: field - bytes.count)
}

/// A command packet as the kernel reads it: for fakes of the kernel in tests, and to fuzz.
public struct MgmtCommandPacket: Hashable, Sendable {
    public var index: ControllerIndex
    public var command: MgmtCommand

    public init(index: ControllerIndex, command: MgmtCommand) {
        self.index = index
        self.command = command
    }

    /// Decodes a command with the parameter lengths mgmt-api gives. Unknown opcodes and wrong
    /// lengths are rejected (the kernel answers those with Unknown Command / Invalid Parameters).
    public init(bytes: [UInt8]) throws(MgmtDecodingError) {
        var r = ByteReader(bytes)
        guard let code = r.u16(), let index = r.u16(), let length = r.u16() else {
            throw .shortHeader(bytes.count)
        }
        guard Int(length) == r.remaining else { throw .lengthMismatch(declared: Int(length), actual: r.remaining) }
        let opcode = MgmtOpcode(rawValue: code)
        let n = r.remaining
        func bad() -> MgmtDecodingError { .invalidCommand(opcode, length: n) }
        func flag() throws(MgmtDecodingError) -> Bool {
            guard n == 1, let v = r.u8(), v <= 1 else { throw bad() }
            return v == 1
        }
        let command: MgmtCommand
        switch opcode {
        case .readVersion, .readControllerIndexList, .readControllerInfo, .readAdvertisingFeatures:
            guard n == 0 else { throw bad() }
            command =
                switch opcode {
                case .readVersion: .readVersion
                case .readControllerIndexList: .readControllerIndexList
                case .readControllerInfo: .readControllerInfo
                default: .readAdvertisingFeatures
                }
        case .setPowered: command = .setPowered(try flag())
        case .setConnectable: command = .setConnectable(try flag())
        case .setBondable: command = .setBondable(try flag())
        case .setLowEnergy: command = .setLowEnergy(try flag())
        case .setDiscoverable:
            guard n == 3, let mode = r.u8().flatMap(DiscoverableMode.init(rawValue:)), let timeout = r.u16() else {
                throw bad()
            }
            command = .setDiscoverable(mode, timeoutSeconds: timeout)
        case .setLocalName:
            guard n == MgmtCommand.nameFieldLength + MgmtCommand.shortNameFieldLength,
                let name = r.take(MgmtCommand.nameFieldLength), let short = r.take(MgmtCommand.shortNameFieldLength)
            else { throw bad() }
            command = .setLocalName(name: nulTerminatedText(name), shortName: nulTerminatedText(short))
        case .disconnect:
            guard n == 7, let address = r.take(6).flatMap(BluetoothAddress.init(littleEndian:)), let t = r.u8() else {
                throw bad()
            }
            guard let type = BluetoothAddressType(rawValue: t) else { throw .unknownAddressType(t) }
            command = .disconnect(address, type)
        case .startDiscovery, .stopDiscovery:
            guard n == 1, let types = r.u8() else { throw bad() }
            let t = DiscoveryAddressTypes(rawValue: types)
            command = opcode == .startDiscovery ? .startDiscovery(t) : .stopDiscovery(t)
        case .setAdvertising:
            guard n == 1, let mode = r.u8().flatMap(AdvertisingMode.init(rawValue:)) else { throw bad() }
            command = .setAdvertising(mode)
        case .setStaticAddress:
            guard n == 6, let address = r.take(6).flatMap(BluetoothAddress.init(littleEndian:)) else { throw bad() }
            command = .setStaticAddress(address)
        case .addAdvertising:
            guard let instance = r.u8(), let flags = r.u32(), let duration = r.u16(), let timeout = r.u16(),
                let advLength = r.u8(), let rspLength = r.u8(), r.remaining == Int(advLength) + Int(rspLength),
                let adv = r.take(Int(advLength)), let rsp = r.take(Int(rspLength))
            else { throw bad() }
            command = .addAdvertising(
                AdvertisingInstance(
                    instance: instance, flags: AdvertisingFlags(rawValue: flags), durationSeconds: duration,
                    timeoutSeconds: timeout, advertisingData: adv, scanResponse: rsp))
        case .removeAdvertising:
            guard n == 1, let instance = r.u8() else { throw bad() }
            command = .removeAdvertising(instance: instance)
        case .setAppearance:
            guard n == 2, let appearance = r.u16() else { throw bad() }
            command = .setAppearance(appearance)
        case .loadConnectionParameters:
            // The kernel refuses a count that disagrees with the length (Invalid Parameters).
            guard let count = r.u16(), r.remaining == Int(count) * DeviceConnectionParameters.encodedLength else {
                throw bad()
            }
            var entries: [DeviceConnectionParameters] = []
            for _ in 0..<count {
                guard let entry = try DeviceConnectionParameters(reading: &r) else { throw bad() }
                entries.append(entry)
            }
            command = .loadConnectionParameters(entries)
        default:
            throw .unknownCommand(opcode)
        }
        self.init(index: index, command: command)
    }
}

/// Text up to the first NUL (mgmt name fields are NUL-terminated and NUL-padded).
func nulTerminatedText(_ bytes: [UInt8]) -> String {
    let end = bytes.firstIndex(of: 0) ?? bytes.count
    return String(decoding: bytes[0..<end], as: UTF8.self)
}

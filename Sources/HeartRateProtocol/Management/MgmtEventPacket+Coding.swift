extension MgmtEventPacket {
    /// Decodes one event as read from the management socket (one event per read).
    public init(bytes: [UInt8]) throws(MgmtDecodingError) {
        var r = ByteReader(bytes)
        guard let code = r.u16(), let index = r.u16(), let length = r.u16() else { throw .shortHeader(bytes.count) }
        guard Int(length) == r.remaining else { throw .lengthMismatch(declared: Int(length), actual: r.remaining) }
        let eventCode = MgmtEventCode(rawValue: code)
        let n = r.remaining
        func check(_ ok: Bool) throws(MgmtDecodingError) {
            if !ok { throw .invalidEvent(eventCode, length: n) }
        }
        func addressType() throws(MgmtDecodingError) -> BluetoothAddressType {
            let t = r.u8() ?? 0
            guard let type = BluetoothAddressType(rawValue: t) else { throw .unknownAddressType(t) }
            return type
        }
        // Each case checks `n` before reading, so the `?? 0` defaults are never taken.
        let event: MgmtEvent
        switch eventCode {
        case .commandComplete:
            try check(n >= 3)
            let opcode = MgmtOpcode(rawValue: r.u16() ?? 0)
            let status = MgmtStatus(rawValue: r.u8() ?? 0)
            let reply = try Self.reply(to: opcode, status: status, parameters: r.rest())
            event = .commandComplete(opcode, status: status, reply: reply)
        case .commandStatus:
            try check(n == 3)
            event = .commandStatus(MgmtOpcode(rawValue: r.u16() ?? 0), status: MgmtStatus(rawValue: r.u8() ?? 0))
        case .controllerError:
            try check(n == 1)
            event = .controllerError(code: r.u8() ?? 0)
        case .indexAdded, .indexRemoved:
            try check(n == 0)
            event = eventCode == .indexAdded ? .indexAdded : .indexRemoved
        case .newSettings:
            try check(n == 4)
            event = .newSettings(ControllerSettings(rawValue: r.u32() ?? 0))
        case .localNameChanged:
            try check(n == MgmtCommand.nameFieldLength + MgmtCommand.shortNameFieldLength)
            let name = nulTerminatedText(r.take(MgmtCommand.nameFieldLength) ?? [])
            event = .localNameChanged(name: name, shortName: nulTerminatedText(r.rest()))
        case .deviceConnected:
            try check(n >= 13)
            let address = BluetoothAddress(littleEndian: r.take(6) ?? []) ?? BluetoothAddress(rawValue: 0)
            let type = try addressType()
            let flags = r.u32() ?? 0
            let eirLength = Int(r.u16() ?? 0)
            try check(r.remaining == eirLength)
            event = .deviceConnected(address, type, flags: flags, eir: r.rest())
        case .deviceDisconnected:
            try check(n == 8)
            let address = BluetoothAddress(littleEndian: r.take(6) ?? []) ?? BluetoothAddress(rawValue: 0)
            let type = try addressType()
            event = .deviceDisconnected(address, type, reason: DisconnectReason(rawValue: r.u8() ?? 0))
        case .deviceFound:
            try check(n >= 14)
            let address = BluetoothAddress(littleEndian: r.take(6) ?? []) ?? BluetoothAddress(rawValue: 0)
            let type = try addressType()
            let rssi = Int8(bitPattern: r.u8() ?? 0)
            let flags = DeviceFoundFlags(rawValue: r.u32() ?? 0)
            let eirLength = Int(r.u16() ?? 0)
            try check(r.remaining == eirLength)
            event = .deviceFound(
                DeviceFound(
                    address: address, addressType: type, rssi: rssi == 127 ? nil : rssi, flags: flags, eir: r.rest()))
        case .discovering:
            try check(n == 2)
            let types = DiscoveryAddressTypes(rawValue: r.u8() ?? 0)
            event = .discovering(types, active: (r.u8() ?? 0) != 0)
        case .newConnectionParameter:
            // Address (6), type (1), store hint (1), min, max, latency, timeout (2 each).
            try check(n == 16)
            let address = BluetoothAddress(littleEndian: r.take(6) ?? []) ?? BluetoothAddress(rawValue: 0)
            let type = try addressType()
            let hint = r.u8() ?? 0
            let parameters =
                LEConnectionParameters(reading: &r)
                ?? LEConnectionParameters(minInterval: 0, maxInterval: 0, latency: 0, supervisionTimeout: 0)
            event = .newConnectionParameter(
                DeviceConnectionParameters(address: address, addressType: type, parameters: parameters),
                storeHint: hint != 0)
        case .advertisingAdded, .advertisingRemoved:
            try check(n == 1)
            let instance = r.u8() ?? 0
            event =
                eventCode == .advertisingAdded
                ? .advertisingAdded(instance: instance) : .advertisingRemoved(instance: instance)
        default:
            event = .other(eventCode, parameters: r.rest())
        }
        self.init(index: index, event: event)
    }

    private static func reply(to opcode: MgmtOpcode, status: MgmtStatus, parameters p: [UInt8])
        throws(MgmtDecodingError)
        -> MgmtReply
    {
        guard status.isSuccess else { return p.isEmpty ? .none : .raw(p) }
        var r = ByteReader(p)
        func check(_ ok: Bool) throws(MgmtDecodingError) {
            if !ok { throw .invalidReply(opcode, length: p.count) }
        }
        switch opcode {
        case .readVersion:
            try check(p.count == 3)
            return .version(version: r.u8() ?? 0, revision: r.u16() ?? 0)
        case .readControllerIndexList:
            try check(p.count >= 2)
            let count = Int(r.u16() ?? 0)
            try check(r.remaining == 2 * count)
            var list: [ControllerIndex] = []
            while let index = r.u16() { list.append(index) }
            return .controllerIndexList(list)
        case .readControllerInfo:
            try check(p.count == 280)
            let address = BluetoothAddress(littleEndian: r.take(6) ?? []) ?? BluetoothAddress(rawValue: 0)
            let version = r.u8() ?? 0
            let manufacturer = r.u16() ?? 0
            let supported = ControllerSettings(rawValue: r.u32() ?? 0)
            let current = ControllerSettings(rawValue: r.u32() ?? 0)
            let cod = r.u24() ?? 0
            let name = nulTerminatedText(r.take(MgmtCommand.nameFieldLength) ?? [])
            let short = nulTerminatedText(r.rest())
            return .controllerInfo(
                ControllerInfo(
                    address: address, bluetoothVersion: version, manufacturer: manufacturer,
                    supportedSettings: supported, currentSettings: current, classOfDevice: cod, name: name,
                    shortName: short))
        case .setPowered, .setDiscoverable, .setConnectable, .setBondable, .setLowEnergy, .setAdvertising,
            .setStaticAddress:
            try check(p.count == 4)
            return .settings(ControllerSettings(rawValue: r.u32() ?? 0))
        case .setLocalName:
            try check(p.count == MgmtCommand.nameFieldLength + MgmtCommand.shortNameFieldLength)
            let name = nulTerminatedText(r.take(MgmtCommand.nameFieldLength) ?? [])
            return .localName(name: name, shortName: nulTerminatedText(r.rest()))
        case .disconnect:
            try check(p.count == 7)
            let address = BluetoothAddress(littleEndian: r.take(6) ?? []) ?? BluetoothAddress(rawValue: 0)
            let t = r.u8() ?? 0
            guard let type = BluetoothAddressType(rawValue: t) else { throw .unknownAddressType(t) }
            return .address(address, type)
        case .startDiscovery, .stopDiscovery:
            try check(p.count == 1)
            return .discovery(DiscoveryAddressTypes(rawValue: r.u8() ?? 0))
        case .readAdvertisingFeatures:
            try check(p.count >= 8)
            let flags = AdvertisingFlags(rawValue: r.u32() ?? 0)
            let maxAdv = r.u8() ?? 0
            let maxRsp = r.u8() ?? 0
            let maxInstances = r.u8() ?? 0
            let count = Int(r.u8() ?? 0)
            try check(r.remaining == count)
            return .advertisingFeatures(
                AdvertisingFeatures(
                    supportedFlags: flags, maxAdvertisingDataLength: maxAdv, maxScanResponseLength: maxRsp,
                    maxInstances: maxInstances, instances: r.rest()))
        case .addAdvertising, .removeAdvertising:
            try check(p.count == 1)
            return .advertisingInstance(r.u8() ?? 0)
        default:
            return p.isEmpty ? .none : .raw(p)
        }
    }

    /// The wire form, as the kernel would send it (for fakes of the kernel in tests).
    public func encoded() -> [UInt8] {
        var p: [UInt8] = []
        switch event {
        case .commandComplete(let opcode, let status, let reply):
            p.appendLE(opcode.rawValue)
            p.append(status.rawValue)
            p += Self.encoded(reply)
        case .commandStatus(let opcode, let status):
            p.appendLE(opcode.rawValue)
            p.append(status.rawValue)
        case .controllerError(let code):
            p.append(code)
        case .indexAdded, .indexRemoved:
            break
        case .newSettings(let settings):
            p.appendLE(settings.rawValue)
        case .localNameChanged(let name, let short):
            p += nulPadded(name, field: MgmtCommand.nameFieldLength)
            p += nulPadded(short, field: MgmtCommand.shortNameFieldLength)
        case .deviceConnected(let address, let type, let flags, let eir):
            p += address.littleEndianBytes
            p.append(type.rawValue)
            p.appendLE(flags)
            p.appendLE(UInt16(truncatingIfNeeded: eir.count))
            p += eir
        case .deviceDisconnected(let address, let type, let reason):
            p += address.littleEndianBytes
            p.append(type.rawValue)
            p.append(reason.rawValue)
        case .deviceFound(let found):
            p += found.address.littleEndianBytes
            p.append(found.addressType.rawValue)
            p.append(UInt8(bitPattern: found.rssi ?? 127))
            p.appendLE(found.flags.rawValue)
            p.appendLE(UInt16(truncatingIfNeeded: found.eir.count))
            p += found.eir
        case .discovering(let types, let active):
            p.append(types.rawValue)
            p.append(active ? 1 : 0)
        case .newConnectionParameter(let entry, let storeHint):
            p += entry.address.littleEndianBytes
            p.append(entry.addressType.rawValue)
            p.append(storeHint ? 1 : 0)
            entry.parameters.append(to: &p)
        case .advertisingAdded(let instance), .advertisingRemoved(let instance):
            p.append(instance)
        case .other(_, let parameters):
            p += parameters
        }
        var out: [UInt8] = []
        out.appendLE(event.code.rawValue)
        out.appendLE(index)
        out.appendLE(UInt16(truncatingIfNeeded: p.count))
        return out + p
    }

    private static func encoded(_ reply: MgmtReply) -> [UInt8] {
        var p: [UInt8] = []
        switch reply {
        case .none: break
        case .version(let version, let revision):
            p.append(version)
            p.appendLE(revision)
        case .controllerIndexList(let list):
            p.appendLE(UInt16(truncatingIfNeeded: list.count))
            for index in list { p.appendLE(index) }
        case .controllerInfo(let info):
            p += info.address.littleEndianBytes
            p.append(info.bluetoothVersion)
            p.appendLE(info.manufacturer)
            p.appendLE(info.supportedSettings.rawValue)
            p.appendLE(info.currentSettings.rawValue)
            p += [
                UInt8(truncatingIfNeeded: info.classOfDevice), UInt8(truncatingIfNeeded: info.classOfDevice >> 8),
                UInt8(truncatingIfNeeded: info.classOfDevice >> 16),
            ]
            p += nulPadded(info.name, field: MgmtCommand.nameFieldLength)
            p += nulPadded(info.shortName, field: MgmtCommand.shortNameFieldLength)
        case .settings(let settings):
            p.appendLE(settings.rawValue)
        case .localName(let name, let short):
            p += nulPadded(name, field: MgmtCommand.nameFieldLength)
            p += nulPadded(short, field: MgmtCommand.shortNameFieldLength)
        case .address(let address, let type):
            p += address.littleEndianBytes
            p.append(type.rawValue)
        case .discovery(let types):
            p.append(types.rawValue)
        case .advertisingFeatures(let f):
            p.appendLE(f.supportedFlags.rawValue)
            p += [
                f.maxAdvertisingDataLength, f.maxScanResponseLength, f.maxInstances,
                UInt8(truncatingIfNeeded: f.instances.count),
            ]
            p += f.instances
        case .advertisingInstance(let instance):
            p.append(instance)
        case .raw(let bytes):
            p += bytes
        }
        return p
    }
}

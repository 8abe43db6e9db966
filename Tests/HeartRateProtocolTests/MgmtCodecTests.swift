import Testing

@testable import HeartRateProtocol

/// Byte scripts hand-assembled from BlueZ doc/mgmt-api (mgmt-protocol.rst): header opcode/event,
/// controller index, parameter length, all little-endian.
@Suite("Management protocol codec (BlueZ mgmt-api)")
struct MgmtCodecTests {
    @Test("mgmt-api Commands: the box's commands encode to header plus parameters")
    func commandBytes() {
        #expect(MgmtCommand.readVersion.encoded(index: .nonController) == hex("01 00 FF FF 00 00"))
        #expect(MgmtCommand.readControllerIndexList.encoded(index: .nonController) == hex("03 00 FF FF 00 00"))
        #expect(MgmtCommand.readControllerInfo.encoded(index: 1) == hex("04 00 01 00 00 00"))
        #expect(MgmtCommand.setPowered(true).encoded(index: 1) == hex("05 00 01 00 01 00 01"))
        #expect(MgmtCommand.setLowEnergy(true).encoded(index: 2) == hex("0D 00 02 00 01 00 01"))
        #expect(MgmtCommand.setConnectable(false).encoded(index: 2) == hex("07 00 02 00 01 00 00"))
        #expect(
            MgmtCommand.setDiscoverable(.general, timeoutSeconds: 0).encoded(index: 2)
                == hex("06 00 02 00 03 00 01 00 00"))
        // Start Discovery: Address_Type 0x06 = LE public | LE random.
        #expect(MgmtCommand.startDiscovery(.le).encoded(index: 0) == hex("23 00 00 00 01 00 06"))
        #expect(MgmtCommand.stopDiscovery(.le).encoded(index: 0) == hex("24 00 00 00 01 00 06"))
        #expect(MgmtCommand.setAdvertising(.connectable).encoded(index: 1) == hex("29 00 01 00 01 00 02"))
        #expect(MgmtCommand.removeAdvertising(instance: 0).encoded(index: 1) == hex("3F 00 01 00 01 00 00"))
        #expect(MgmtCommand.setAppearance(0x0341).encoded(index: 1) == hex("43 00 01 00 02 00 41 03"))
        let address = BluetoothAddress("C0:11:22:33:44:55")!
        #expect(
            MgmtCommand.disconnect(address, .leRandom).encoded(index: 1)
                == hex("14 00 01 00 07 00 55 44 33 22 11 C0 02"))
    }

    @Test("mgmt-api Set Static Address: the six address octets, least significant first; settings reply")
    func staticAddress() throws {
        let address = BluetoothAddress("C4:11:22:33:44:55")!
        let bytes = MgmtCommand.setStaticAddress(address).encoded(index: 1)
        #expect(bytes == hex("2B 00 01 00 06 00 55 44 33 22 11 C4"))
        #expect(try MgmtCommandPacket(bytes: bytes) == MgmtCommandPacket(index: 1, command: .setStaticAddress(address)))
        #expect(throws: MgmtDecodingError.self) {
            try MgmtCommandPacket(bytes: hex("2B 00 01 00 05 00 55 44 33 22 11"))
        }
        let reply = try MgmtEventPacket(bytes: hex("01 00 01 00 07 00 2B 00 00 00 02 00 00"))
        #expect(reply.event == .commandComplete(.setStaticAddress, status: .success, reply: .settings([.lowEnergy])))
    }

    @Test("mgmt-api Add Advertising: instance, flags, duration, timeout, lengths, then the data")
    func addAdvertising() throws {
        let adv = AdvertisingData.strap(name: "Polar H10 1A2B3C4D", includeFlags: false).encoded()
        let instance = AdvertisingInstance(flags: [.connectable, .discoverable], advertisingData: adv)
        let bytes = MgmtCommand.addAdvertising(instance).encoded(index: 1)
        #expect(Array(bytes[0..<6]) == [0x3E, 0x00, 0x01, 0x00, UInt8(11 + adv.count), 0x00])
        #expect(Array(bytes[6..<17]) == hex("01 03 00 00 00 00 00 00 00") + [UInt8(adv.count), 0x00])
        #expect(Array(bytes[17...]) == adv)
        #expect(try MgmtCommandPacket(bytes: bytes) == MgmtCommandPacket(index: 1, command: .addAdvertising(instance)))
    }

    @Test("mgmt-api Load Connection Parameters: count, then address, type, min, max, latency, timeout")
    func loadConnectionParameters() throws {
        let strap = DeviceConnectionParameters(
            address: BluetoothAddress("C4:11:22:33:44:55")!, addressType: .leRandom, parameters: .strap)
        let bytes = MgmtCommand.loadConnectionParameters([strap]).encoded(index: 1)
        // 0x0035, hci1, 17 parameter octets: count 1; 55 44 33 22 11 C4, random (2);
        // min 24 (0x0018), max 400 (0x0190), latency 0, timeout 600 (0x0258).
        #expect(bytes == hex("35 00 01 00 11 00 01 00 55 44 33 22 11 C4 02 18 00 90 01 00 00 58 02"))
        #expect(
            try MgmtCommandPacket(bytes: bytes)
                == MgmtCommandPacket(index: 1, command: .loadConnectionParameters([strap])))
        // An empty list is the kernel's way to clear; it is two octets of count.
        #expect(MgmtCommand.loadConnectionParameters([]).encoded(index: 0) == hex("35 00 00 00 02 00 00 00"))
        // A count that disagrees with the entries that follow is refused (the kernel: Invalid Parameters).
        #expect(throws: MgmtDecodingError.invalidCommand(.loadConnectionParameters, length: 17)) {
            try MgmtCommandPacket(bytes: hex("35 00 01 00 11 00 02 00 55 44 33 22 11 C4 02 18 00 90 01 00 00 58 02"))
        }
        #expect(throws: MgmtDecodingError.unknownAddressType(9)) {
            try MgmtCommandPacket(bytes: hex("35 00 01 00 11 00 01 00 55 44 33 22 11 C4 09 18 00 90 01 00 00 58 02"))
        }
        // The reply carries no parameters.
        let reply = try MgmtEventPacket(bytes: hex("01 00 01 00 03 00 35 00 00"))
        #expect(reply.event == .commandComplete(.loadConnectionParameters, status: .success, reply: .none))
        let refused = try MgmtEventPacket(bytes: hex("02 00 01 00 03 00 35 00 0D"))
        #expect(refused.event == .commandStatus(.loadConnectionParameters, status: .invalidParameters))
    }

    @Test("mgmt-api New Connection Parameter: the accepted request, and whether the kernel keeps it")
    func newConnectionParameter() throws {
        // hci1; C4:11:22:33:44:55 random, store hint 1, min 250 (0x00FA), max 400, latency 0, timeout 600.
        let bytes = hex("1C 00 01 00 10 00 55 44 33 22 11 C4 02 01 FA 00 90 01 00 00 58 02")
        let packet = try MgmtEventPacket(bytes: bytes)
        let expected = DeviceConnectionParameters(
            address: BluetoothAddress("C4:11:22:33:44:55")!, addressType: .leRandom, parameters: .polarRequest)
        #expect(packet == MgmtEventPacket(index: 1, event: .newConnectionParameter(expected, storeHint: true)))
        #expect(packet.encoded() == bytes)
        #expect(throws: MgmtDecodingError.invalidEvent(.newConnectionParameter, length: 15)) {
            try MgmtEventPacket(bytes: hex("1C 00 01 00 0F 00 55 44 33 22 11 C4 02 01 FA 00 90 01 00 00 58"))
        }
    }

    @Test("Linux hci_check_conn_params: what the strap asks and what the box loads pass; the limits hold")
    func connectionParameterLimits() {
        #expect(LEConnectionParameters.strap.isValid)
        #expect(LEConnectionParameters.polarRequest.isValid)
        #expect(LEConnectionParameters.strap.maxInterval >= LEConnectionParameters.polarRequest.maxInterval)
        #expect(LEConnectionParameters.strap.description == "interval 30–500 ms, latency 0, timeout 6000 ms")
        // max 400 needs timeout × 4 > 400 at latency 0: 99 is refused, 100 accepted.
        #expect(!LEConnectionParameters(minInterval: 24, maxInterval: 400, latency: 0, supervisionTimeout: 99).isValid)
        #expect(LEConnectionParameters(minInterval: 24, maxInterval: 400, latency: 0, supervisionTimeout: 100).isValid)
        #expect(!LEConnectionParameters(minInterval: 5, maxInterval: 40, latency: 0, supervisionTimeout: 42).isValid)
        #expect(!LEConnectionParameters(minInterval: 41, maxInterval: 40, latency: 0, supervisionTimeout: 42).isValid)
        #expect(
            !LEConnectionParameters(minInterval: 6, maxInterval: 3201, latency: 0, supervisionTimeout: 3200).isValid)
        #expect(
            !LEConnectionParameters(minInterval: 24, maxInterval: 40, latency: 500, supervisionTimeout: 3200).isValid)
        #expect(
            LEConnectionParameters(minInterval: 7, maxInterval: 7, latency: 0, supervisionTimeout: 10).description
                == "interval 8.75–8.75 ms, latency 0, timeout 100 ms")
    }

    @Test("mgmt-api Set Local Name: 249 + 11 NUL-padded octets, names cut on a character boundary")
    func localName() throws {
        let bytes = MgmtCommand.setLocalName(name: "Polar H10 1A2B3C4D", shortName: "Polar H10 1A2B").encoded(index: 1)
        #expect(bytes.count == 6 + 260)
        #expect(Array(bytes[6..<24]) == Array("Polar H10 1A2B3C4D".utf8))
        #expect(bytes[24] == 0)
        #expect(Array(bytes[255..<265]) == Array("Polar H10 ".utf8))  // 10 octets, then the NUL
        #expect(bytes[265] == 0)
        let decoded = try MgmtCommandPacket(bytes: bytes)
        #expect(decoded.command == .setLocalName(name: "Polar H10 1A2B3C4D", shortName: "Polar H10 "))
        // A three-octet character that would straddle the limit is dropped whole.
        let cut = nulPadded("123456789€", field: 11)
        #expect(Array(cut[0..<9]) == Array("123456789".utf8) && cut[9] == 0)
    }

    @Test("mgmt-api Command Complete: version, index list and settings replies decode")
    func commandCompleteReplies() throws {
        let version = try MgmtEventPacket(bytes: hex("01 00 FF FF 06 00 01 00 00 01 16 00"))
        #expect(
            version
                == MgmtEventPacket(
                    index: .nonController,
                    event: .commandComplete(.readVersion, status: .success, reply: .version(version: 1, revision: 22))))
        let list = try MgmtEventPacket(bytes: hex("01 00 FF FF 0B 00 03 00 00 03 00 00 00 01 00 02 00"))
        #expect(
            list.event
                == .commandComplete(.readControllerIndexList, status: .success, reply: .controllerIndexList([0, 1, 2])))
        let powered = try MgmtEventPacket(bytes: hex("01 00 01 00 07 00 05 00 00 01 02 00 00"))
        #expect(powered.index == 1)
        #expect(
            powered.event == .commandComplete(.setPowered, status: .success, reply: .settings([.powered, .lowEnergy])))
        let discovery = try MgmtEventPacket(bytes: hex("01 00 00 00 04 00 23 00 00 06"))
        #expect(discovery.event == .commandComplete(.startDiscovery, status: .success, reply: .discovery(.le)))
    }

    @Test("mgmt-api Command Complete / Status: failures carry a status with a sentence to act on")
    func failures() throws {
        let notPowered = try MgmtEventPacket(bytes: hex("01 00 00 00 04 00 23 00 0F 06"))
        #expect(notPowered.event == .commandComplete(.startDiscovery, status: .notPowered, reply: .raw([6])))
        let denied = try MgmtEventPacket(bytes: hex("02 00 00 00 03 00 05 00 14"))
        #expect(denied.event == .commandStatus(.setPowered, status: .permissionDenied))
        #expect(MgmtStatus.permissionDenied.description.contains("CAP_NET_ADMIN"))
        #expect(MgmtStatus.rfkilled.description.contains("rfkill unblock"))
        #expect(MgmtStatus(rawValue: 0x42).description == "management status 0x42")
    }

    @Test("mgmt-api Read Controller Information: the 280-octet reply decodes field by field")
    func controllerInfo() throws {
        // Command Complete, index 0, 283 parameter bytes; opcode 0x0004, status success.
        var p = hex("01 00 00 00 1B 01 04 00 00")
        p += hex("56 34 12 EF CD AB")  // AB:CD:EF:12:34:56
        p += [0x09]  // Bluetooth 5.0
        p += hex("3F 06")  // manufacturer 0x063F
        p += hex("FF 02 00 00")  // supported
        p += hex("01 02 00 00")  // current: powered, le
        p += hex("00 00 00")
        p += Array("BlueZ 5.66".utf8) + [UInt8](repeating: 0, count: 249 - 10)
        p += [UInt8](repeating: 0, count: 11)
        let packet = try MgmtEventPacket(bytes: p)
        guard case .commandComplete(.readControllerInfo, .success, .controllerInfo(let info)) = packet.event else {
            Issue.record("not a controller info reply: \(packet)")
            return
        }
        #expect(info.address.description == "AB:CD:EF:12:34:56")
        #expect(info.manufacturer == 0x063F)
        #expect(info.currentSettings == [.powered, .lowEnergy])
        #expect(info.currentSettings.description == "powered le")
        #expect(info.name == "BlueZ 5.66")
        #expect(info.shortName == "")
        #expect(packet.encoded() == p)
    }

    @Test("mgmt-api Device Found: address, type, RSSI, flags and EIR; RSSI 127 means unavailable")
    func deviceFound() throws {
        let eir = AdvertisingData.strap(name: "Polar H10 1A2B3C4D").encoded()
        var bytes = hex("12 00 02 00") + [UInt8(14 + eir.count), 0]
        bytes +=
            hex("4D 3C 2B 1A 9E C4") + [0x02] + [UInt8(bitPattern: -67)] + hex("00 00 00 00") + [UInt8(eir.count), 0]
        bytes += eir
        let packet = try MgmtEventPacket(bytes: bytes)
        guard case .deviceFound(let found) = packet.event else {
            Issue.record("not Device Found: \(packet)")
            return
        }
        #expect(found.address == BluetoothAddress("C4:9E:1A:2B:3C:4D"))
        #expect(found.address.isStaticRandomForm)
        #expect(found.addressType == .leRandom)
        #expect(found.rssi == -67)
        #expect(try found.advertisingData().strapMatch == .polarH10Name)
        #expect(packet.encoded() == bytes)
        var unknownRSSI = bytes
        unknownRSSI[13] = 127
        guard case .deviceFound(let f2) = try MgmtEventPacket(bytes: unknownRSSI).event else { return }
        #expect(f2.rssi == nil)
    }

    @Test("mgmt-api Events: discovering, index, settings, connection and controller error decode")
    func otherEvents() throws {
        #expect(try MgmtEventPacket(bytes: hex("13 00 01 00 02 00 06 01")).event == .discovering(.le, active: true))
        #expect(try MgmtEventPacket(bytes: hex("04 00 03 00 00 00")) == MgmtEventPacket(index: 3, event: .indexAdded))
        #expect(try MgmtEventPacket(bytes: hex("05 00 03 00 00 00")).event == .indexRemoved)
        #expect(
            try MgmtEventPacket(bytes: hex("06 00 00 00 04 00 81 02 00 00")).event
                == .newSettings([.powered, .bredr, .lowEnergy]))
        #expect(try MgmtEventPacket(bytes: hex("03 00 00 00 01 00 2A")).event == .controllerError(code: 0x2A))
        let address = BluetoothAddress("A0:9E:1A:00:00:01")!
        #expect(
            try MgmtEventPacket(bytes: hex("0C 00 01 00 08 00 01 00 00 1A 9E A0 01 01")).event
                == .deviceDisconnected(address, .lePublic, reason: .connectionTimeout))
        #expect(
            try MgmtEventPacket(bytes: hex("0B 00 01 00 0D 00 01 00 00 1A 9E A0 01 08 00 00 00 00 00")).event
                == .deviceConnected(address, .lePublic, flags: 8, eir: []))
        #expect(try MgmtEventPacket(bytes: hex("23 00 01 00 01 00 01")).event == .advertisingAdded(instance: 1))
        #expect(
            try MgmtEventPacket(bytes: hex("25 00 01 00 02 00 AA BB")).event
                == .other(MgmtEventCode(rawValue: 0x25), parameters: [0xAA, 0xBB]))
    }

    @Test("mgmt-api Packet Structures: short, inconsistent or impossible packets are typed errors")
    func rejections() {
        #expect(throws: MgmtDecodingError.shortHeader(5)) { try MgmtEventPacket(bytes: hex("01 00 00 00 00")) }
        #expect(throws: MgmtDecodingError.lengthMismatch(declared: 4, actual: 3)) {
            try MgmtEventPacket(bytes: hex("06 00 00 00 04 00 01 02 00"))
        }
        #expect(throws: MgmtDecodingError.invalidEvent(.discovering, length: 1)) {
            try MgmtEventPacket(bytes: hex("13 00 00 00 01 00 06"))
        }
        #expect(throws: MgmtDecodingError.invalidReply(.readControllerIndexList, length: 4)) {
            try MgmtEventPacket(bytes: hex("01 00 FF FF 07 00 03 00 00 02 00 00 00"))
        }
        #expect(throws: MgmtDecodingError.unknownAddressType(7)) {
            try MgmtEventPacket(bytes: hex("0C 00 01 00 08 00 01 00 00 1A 9E A0 07 01"))
        }
        // Device Found whose EIR length disagrees with the bytes that follow.
        #expect(throws: MgmtDecodingError.invalidEvent(.deviceFound, length: 15)) {
            try MgmtEventPacket(bytes: hex("12 00 00 00 0F 00 01 02 03 04 05 06 01 C0 00 00 00 00 02 00 AA"))
        }
        #expect(throws: MgmtDecodingError.invalidCommand(.setPowered, length: 1)) {
            try MgmtCommandPacket(bytes: hex("05 00 00 00 01 00 02"))
        }
        #expect(throws: MgmtDecodingError.unknownCommand(MgmtOpcode(rawValue: 0x0002))) {
            try MgmtCommandPacket(bytes: hex("02 00 FF FF 00 00"))
        }
    }

    @Test("mgmt-api: every prefix of every event is rejected or read consistently")
    func bytewise() {
        let scripts = [
            "01 00 FF FF 0B 00 03 00 00 03 00 00 00 01 00 02 00", "13 00 01 00 02 00 06 01",
            "12 00 02 00 11 00 4D 3C 2B 1A 9E C4 02 BD 00 00 00 00 03 00 02 01 06",
            "0C 00 01 00 08 00 01 00 00 1A 9E A0 01 01", "02 00 00 00 03 00 05 00 14",
            "1C 00 01 00 10 00 55 44 33 22 11 C4 02 01 FA 00 90 01 00 00 58 02",
        ]
        for script in scripts {
            expectPrefixesConsistent(hex(script), decode: MgmtEventPacket.init(bytes:), encode: { $0.encoded() })
        }
        let commands: [MgmtCommand] = [
            .startDiscovery(.le), .setLocalName(name: "Polar H10 1", shortName: "H10"),
            .addAdvertising(AdvertisingInstance(flags: [.connectable], advertisingData: [2, 1, 6])),
            .loadConnectionParameters([
                DeviceConnectionParameters(
                    address: BluetoothAddress("A0:9E:1A:00:00:01")!, addressType: .lePublic, parameters: .strap)
            ]),
        ]
        for command in commands {
            expectPrefixesConsistent(
                command.encoded(index: 1), decode: MgmtCommandPacket.init(bytes:),
                encode: { $0.command.encoded(index: $0.index) })
        }
    }
}

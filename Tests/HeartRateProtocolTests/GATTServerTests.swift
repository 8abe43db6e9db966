import Testing

@testable import HeartRateProtocol

/// Request/response scripts against the virtual strap's database. Its layout (handles) is fixed
/// by `AttributeDatabase.heartRateStrap`:
///   0x0001 GAP service … 0x0005        0x0006 GATT service … 0x0009
///   0x000A Heart Rate service … 0x000F (0x000C HR Measurement value, 0x000D its CCCD,
///                                       0x000F Body Sensor Location value)
///   0x0010 Battery … 0x0013 (0x0012 Battery Level, 0x0013 CCCD)
///   0x0014 Device Information … 0x0020 (0x001E Firmware Revision value)
@Suite("GATT server (Core 5.3 Vol 3 Part F §3.4, Part G §4)")
struct GATTServerTests {
    static func strap(mtu: UInt16 = 247) -> (GATTServer, HeartRateStrapHandles) {
        GATTServer.heartRateStrap(.polarH10(id: "1A2B3C4D"), serverRxMTU: mtu)
    }

    /// Sends one request, returns the single PDU answered.
    static func ask(_ server: inout GATTServer, _ request: String) -> [UInt8] {
        let actions = server.handle(.received(hex(request)))
        let sent = actions.compactMap { if case .send(let b) = $0 { b } else { nil } }
        #expect(sent.count == 1, "exactly one response to \(request)")
        return sent.first ?? []
    }

    @Test("Strap database: handles are the documented fixed layout")
    func layout() {
        let (server, h) = Self.strap()
        #expect(h.heartRateMeasurement == CharacteristicHandles(declaration: 0x0B, value: 0x0C, cccd: 0x0D))
        #expect(h.bodySensorLocation.value == 0x0F)
        #expect(h.batteryLevel == CharacteristicHandles(declaration: 0x11, value: 0x12, cccd: 0x13))
        #expect(h.firmwareRevision.value == 0x1E)
        #expect(server.database.lastHandle == 0x20)
    }

    @Test("Vol 3 Part G §4.4.1: primary service discovery pages through Read By Group Type to Attribute Not Found")
    func primaryServices() {
        var (server, _) = Self.strap(mtu: 23)
        // At ATT_MTU 23 a response holds (23 − 2) / 6 = 3 entries of 16-bit services.
        #expect(
            Self.ask(&server, "10 01 00 FF FF 00 28")
                == hex("11 06 01 00 05 00 00 18 06 00 09 00 01 18 0A 00 0F 00 0D 18"))
        #expect(Self.ask(&server, "10 10 00 FF FF 00 28") == hex("11 06 10 00 13 00 0F 18 14 00 20 00 0A 18"))
        #expect(Self.ask(&server, "10 21 00 FF FF 00 28") == hex("01 10 21 00 0A"))
    }

    @Test(
        "Vol 3 Part F §3.4.4.9: a non-service group type is Unsupported Group Type; start > end is Invalid Handle"
    )
    func groupTypeErrors() {
        var (server, _) = Self.strap()
        #expect(Self.ask(&server, "10 01 00 FF FF 03 28") == hex("01 10 01 00 10"))
        #expect(Self.ask(&server, "10 05 00 01 00 00 28") == hex("01 10 05 00 01"))
        #expect(Self.ask(&server, "10 00 00 FF FF 00 28") == hex("01 10 00 00 01"))
    }

    @Test("Vol 3 Part G §4.6.1: characteristic discovery in the Heart Rate service returns declarations")
    func characteristics() {
        var (server, _) = Self.strap()
        // HR Measurement: notify (0x10), value 0x000C, 0x2A37; Body Sensor Location: read, 0x000F, 0x2A38.
        #expect(Self.ask(&server, "08 0A 00 0F 00 03 28") == hex("09 07 0B 00 10 0C 00 37 2A 0E 00 02 0F 00 38 2A"))
        #expect(Self.ask(&server, "08 0F 00 0F 00 03 28") == hex("01 08 0F 00 0A"))
    }

    @Test("Vol 3 Part G §4.7.1: descriptor discovery finds the HR Measurement CCCD")
    func descriptors() {
        var (server, _) = Self.strap()
        #expect(Self.ask(&server, "04 0D 00 0D 00") == hex("05 01 0D 00 02 29"))
        #expect(Self.ask(&server, "04 21 00 FF FF") == hex("01 04 21 00 0A"))
    }

    @Test("Vol 3 Part G §4.4.2: Find By Type Value finds the Heart Rate service and its end")
    func findByTypeValue() {
        var (server, _) = Self.strap()
        #expect(Self.ask(&server, "06 01 00 FF FF 00 28 0D 18") == hex("07 0A 00 0F 00"))
        #expect(Self.ask(&server, "06 01 00 FF FF 00 28 0D 19") == hex("01 06 01 00 0A"))
    }

    @Test("Vol 3 Part G §4.8.1, §4.8.3: reads, long reads by offset and their errors")
    func reads() {
        var (server, h) = Self.strap(mtu: 23)
        #expect(Self.ask(&server, "0A 12 00") == hex("0B 64"))  // battery 100 %
        #expect(Self.ask(&server, "0A 0F 00") == hex("0B 01"))  // chest
        #expect(Self.ask(&server, "0A 1E 00") == [0x0B] + Array("3.1.1".utf8))
        // HR Measurement is notify-only: Read Not Permitted. Beyond the database: Invalid Handle.
        #expect(Self.ask(&server, "0A 0C 00") == hex("01 0A 0C 00 02"))
        #expect(Self.ask(&server, "0A 40 00") == hex("01 0A 40 00 01"))
        // The 16-octet manufacturer name is whole at MTU 23; the device name needs a blob read.
        #expect(Self.ask(&server, "0A 03 00") == [0x0B] + Array("Polar H10 1A2B3C4D".utf8))
        #expect(Self.ask(&server, "0C 03 00 10 00") == [0x0D] + Array("4D".utf8))
        #expect(Self.ask(&server, "0C 03 00 12 00") == [0x0D])
        #expect(Self.ask(&server, "0C 03 00 13 00") == hex("01 0C 03 00 07"))
        _ = h
    }

    @Test("Vol 3 Part G §4.8.2: read using characteristic UUID (Read By Type 0x2A19) returns the battery level")
    func readByUUID() {
        var (server, _) = Self.strap()
        #expect(Self.ask(&server, "08 01 00 FF FF 19 2A") == hex("09 03 12 00 64"))
        // The first match for 0x2A37 cannot be read: Read Not Permitted with its handle.
        #expect(Self.ask(&server, "08 01 00 FF FF 37 2A") == hex("01 08 0C 00 02"))
    }

    @Test("Vol 3 Part G §3.3.3.3, §4.10: writing 01 00 to the CCCD enables notifications, sized to ATT_MTU")
    func subscribe() throws {
        var (server, h) = Self.strap()
        let m = HeartRateMeasurement(beatsPerMinute: 60, rrIntervals: Array(repeating: 1000, count: 12))
        #expect(server.notifications(for: m, at: h.heartRateMeasurement.value).isEmpty)
        let actions = server.handle(.received(hex("12 0D 00 01 00")))
        #expect(actions == [.send(hex("13")), .subscriptionChanged(valueHandle: 0x0C, notify: true, indicate: false)])
        #expect(server.isNotifying(0x0C))
        // ATT_MTU 23: 9 RR per notification, so 12 RR travel in two.
        let sent = server.notifications(for: m, at: h.heartRateMeasurement.value)
        #expect(sent.count == 2)
        let decoded = try sent.map { try HeartRateMeasurement(bytes: Array($0.dropFirst(3))) }
        #expect(decoded.flatMap(\.rrIntervals) == m.rrIntervals)
        #expect(decoded.map(\.rrIntervals.count) == [9, 3])
        #expect(sent.allSatisfy { $0.count <= 23 && $0[0] == 0x1B && $0[1] == 0x0C })
        // Battery update notifies only once subscribed.
        #expect(server.update([55], at: h.batteryLevel.value) == nil)
        _ = server.handle(.received(hex("12 13 00 01 00")))
        #expect(server.update([54], at: h.batteryLevel.value) == hex("1B 12 00 36"))
        // A new connection forgets the subscriptions.
        _ = server.handle(.connected)
        #expect(!server.isNotifying(0x0C))
    }

    @Test("Vol 3 Part G §3.3.3.3: CCCD writes of the wrong length or unsupported bits are refused")
    func cccdErrors() {
        var (server, _) = Self.strap()
        #expect(Self.ask(&server, "12 0D 00 01") == hex("01 12 0D 00 0D"))
        #expect(Self.ask(&server, "12 0D 00 02 00") == hex("01 12 0D 00 FD"))  // HRM cannot indicate
        #expect(Self.ask(&server, "12 0C 00 01 00") == hex("01 12 0C 00 03"))  // the value itself: not writable
        #expect(Self.ask(&server, "12 55 00 01 00") == hex("01 12 55 00 01"))
        #expect(!server.isNotifying(0x0C))
        // Write Command gets no response, right or wrong.
        #expect(server.handle(.received(hex("52 0C 00 01 00"))).isEmpty)
        #expect(
            server.handle(.received(hex("52 0D 00 01 00"))) == [
                .subscriptionChanged(valueHandle: 0x0C, notify: true, indicate: false)
            ])
    }

    @Test("Vol 3 Part F §3.4.2: MTU exchange sets ATT_MTU to the smaller Rx MTU, never below 23")
    func mtuExchange() {
        var (server, _) = Self.strap(mtu: 185)
        #expect(server.handle(.received(hex("02 F7 00"))) == [.send(hex("03 B9 00")), .mtuChanged(185)])
        #expect(server.attMTU == 185)
        var (small, _) = Self.strap(mtu: 185)
        #expect(small.handle(.received(hex("02 10 00"))) == [.send(hex("03 B9 00"))])
        #expect(small.attMTU == 23)
    }

    @Test(
        "Vol 3 Part F §3.4.1.1, §3.3.1: unserved request: Not Supported; malformed: Invalid PDU; command: nothing"
    )
    func unsupported() {
        var (server, _) = Self.strap()
        #expect(Self.ask(&server, "0E 03 00 12 00") == hex("01 0E 00 00 06"))  // Read Multiple
        #expect(Self.ask(&server, "16 0D 00 00 00 01") == hex("01 16 00 00 06"))  // Prepare Write
        #expect(Self.ask(&server, "3A 01 02") == hex("01 3A 00 00 06"))  // unknown request opcode
        #expect(Self.ask(&server, "0A 03") == hex("01 0A 00 00 04"))  // Read Request one byte short
        let ignored = server.handle(.received(hex("7A 01 02")))  // unknown command
        #expect(ignored.isEmpty)
        #expect(server.handle(.received(hex("1D 03 00 01"))) == [.send(hex("1E"))])  // indication → confirmation
    }
}

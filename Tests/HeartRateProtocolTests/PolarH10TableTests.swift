import Testing

@testable import HeartRateProtocol

/// The virtual strap's table against a real Polar H10's (gatttool `primary` and `char-desc` on an
/// H10, published in phdiethelm/h10_ecg exploration/gatttool.md), and the box's client replaying
/// its discovery of that table as a byte script (Vol 3 Part F §3.4, Part G §4).
@Suite("A real Polar H10's attribute table")
struct PolarH10TableTests {
    /// `char-desc` of a real H10, handle 0x0001 to 0x0054: each attribute's type, 16-bit or the
    /// first 32 bits of a 128-bit UUID ("6217FF4C…").
    static let realTypes: [String] = [
        "2800", "2803", "2A00", "2803", "2A01", "2803", "2A04", "2803", "2AA6",  // GAP 0x01–0x09
        "2800", "2803", "2A05", "2902",  // GATT 0x0A–0x0D
        "2800", "2803", "2A37", "2902", "2803", "2A38",  // Heart Rate 0x0E–0x13
        "2800", "2803", "2A99", "2803", "2A9A", "2803", "2A9F", "2902", "2803", "2A8A", "2900", "2803", "2A90",
        "2900", "2803", "2A80", "2803", "2A8C", "2803", "2A98", "2803", "2A8E", "2803", "2AA2",  // User Data 0x14–0x2B
        "2800", "2803", "2A29", "2803", "2A24", "2803", "2A25", "2803", "2A27", "2803", "2A26", "2803", "2A28",
        "2803", "2A23",  // Device Information 0x2C–0x3A
        "2800", "2803", "2A19", "2902",  // Battery 0x3B–0x3E
        "2800", "2803", "6217FF4C…", "2803", "6217FF4D…", "2902",  // 0x3F–0x44
        "2800", "2803", "FB005C81…", "2902", "2803", "FB005C82…", "2902",  // PMD 0x45–0x4B
        "2800", "2803", "FB005C51…", "2902", "2803", "FB005C52…", "2902", "2803", "FB005C53…",  // PFTP 0x4C–
    ]

    static func server() -> (GATTServer, HeartRateStrapHandles) {
        Self.server(PolarH10Profile.identity(id: "8AA87D20"))
    }

    static func server(_ identity: StrapIdentity) -> (GATTServer, HeartRateStrapHandles) {
        let (db, handles) = AttributeDatabase.polarH10(identity)
        var server = GATTServer(database: db, serverRxMTU: PolarH10Profile.serverRxMTU)
        _ = server.handle(.connected)
        return (server, handles)
    }

    @Test("Vol 3 Part G §4.7.1: every attribute's type, in a real H10's order, found by Find Information")
    func everyAttributeInOrder() throws {
        var (server, _) = Self.server()
        var types: [String] = []
        var next: UInt16 = 1
        while true {
            let request = ATTPDU.findInformationRequest(start: next, end: 0xFFFF).encoded()
            var response: [UInt8] = []
            for case .send(let bytes) in server.handle(.received(request)) { response = bytes }
            guard case .findInformationResponse(let list) = try ATTPDU(bytes: response) else { break }
            for entry in list {
                #expect(entry.handle == UInt16(types.count + 1), "handles are contiguous from 0x0001")
                let text = entry.type.description.uppercased()
                types.append(entry.type.uuid16 != nil ? String(text.suffix(4)) : String(text.prefix(8)) + "…")
            }
            next = list.last!.handle + 1
        }
        #expect(types == Self.realTypes)
    }

    /// The box's discovery of a real H10, request and response, literal (responses per gatttool's
    /// dump: HR Measurement value 0x0010, CCCD 0x0011, Battery Level 0x003D, Firmware 0x0036; the
    /// last service, PFTP, runs to 0xFFFF so service discovery ends without an Attribute Not Found).
    static let discovery: [(request: String, response: String)] = [
        ("10 01 00 FF FF 00 28", "11 06 01 00 09 00 00 18 0A 00 0D 00 01 18 0E 00 13 00 0D 18"),
        ("10 14 00 FF FF 00 28", "11 06 14 00 2B 00 1C 18 2C 00 3A 00 0A 18 3B 00 3E 00 0F 18"),
        ("10 3F 00 FF FF 00 28", "11 14 3F 00 44 00 F3 EC D7 45 55 A4 5A AD 40 11 31 FB 4B FF 17 62"),
        ("10 45 00 FF FF 00 28", "11 14 45 00 4B 00 C8 F0 8D 2D CD 8A AD 1C 87 F3 E7 02 80 5C 00 FB"),
        ("10 4C 00 FF FF 00 28", "11 06 4C 00 FF FF EE FE"),
        ("08 0E 00 13 00 03 28", "09 07 0F 00 10 10 00 37 2A 12 00 02 13 00 38 2A"),
        ("08 13 00 13 00 03 28", "01 08 13 00 0A"),
        ("04 11 00 11 00", "05 01 11 00 02 29"),
        ("12 11 00 01 00", "13"),
        ("08 3B 00 3E 00 03 28", "09 07 3C 00 12 3D 00 19 2A"),
        ("08 3D 00 3E 00 03 28", "01 08 3D 00 0A"),
        ("0A 3D 00", "0B 57"),
        ("08 2C 00 3A 00 03 28", "09 07 2D 00 02 2E 00 29 2A 2F 00 02 30 00 24 2A 31 00 02 32 00 25 2A"),
        ("08 32 00 3A 00 03 28", "09 07 33 00 02 34 00 27 2A 35 00 02 36 00 26 2A 37 00 02 38 00 28 2A"),
        ("08 38 00 3A 00 03 28", "09 07 39 00 02 3A 00 23 2A"),
        ("08 3A 00 3A 00 03 28", "01 08 3A 00 0A"),
        ("0A 36 00", "0B 35 2E 30 2E 30"),
    ]

    @Test("Vol 3 Part G §4.4.1–§4.8.1: the client's discovery of a real H10, byte for byte, to battery and firmware")
    func clientReplaysRealDiscovery() {
        var c = GATTClient()
        var actions = clientStep(&c, .linkUp(nowMs: 0), sends: [Self.discovery[0].request])
        var events: [GATTClient.Action] = []
        for (i, step) in Self.discovery.enumerated() {
            let next = i + 1 < Self.discovery.count ? [Self.discovery[i + 1].request] : []
            actions = clientStep(&c, rx(step.response), sends: next)
            events += actions
        }
        #expect(events == [.subscribed, .battery(percent: 87), .firmwareRevision("5.0.0")])
        #expect(c.heartRateMeasurement?.value == 0x0010 && c.heartRateCCCD == 0x0011)
        #expect(c.services.map(\.end).last == 0xFFFF)
        #expect(c.nextDeadlineMs == nil)
    }

    @Test("The virtual strap answers the script's requests with the script's responses")
    func serverProducesTheScript() {
        var identity = PolarH10Profile.identity(id: "8AA87D20")
        identity.batteryPercent = 87
        var (server, _) = Self.server(identity)
        for step in Self.discovery {
            var response: [UInt8] = []
            for case .send(let bytes) in server.handle(.received(hex(step.request))) { response = bytes }
            #expect(response == hex(step.response), "answer to \(step.request)")
        }
    }

    @Test("Vol 3 Part F §3.4.2.2: a real H10 answers an MTU exchange with 232")
    func mtu() {
        var (server, _) = Self.server()
        var response: [UInt8] = []
        for case .send(let bytes) in server.handle(.received(hex("02 F7 00"))) { response = bytes }
        #expect(response == hex("03 E8 00"))
        #expect(server.attMTU == 232)
    }

    @Test(
        "Two Device Information services (bluetoothd's PnP-only one first): firmware is read from the one that has it")
    func twoDeviceInformationServices() {
        // GAP 1–3, HR 4–9 (value 6, CCCD 7), a PnP-only 180A at 0x0A–0x0C (2A50), the strap's at
        // 0x0D–0x0F (2A26 at 0x0F).
        var c = GATTClient(configuration: .init(readsBatteryLevel: false))
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(
            &c, rx("11 06 01 00 03 00 00 18 04 00 09 00 0D 18 0A 00 0C 00 0A 18"), sends: ["10 0D 00 FF FF 00 28"])
        clientStep(&c, rx("11 06 0D 00 0F 00 0A 18"), sends: ["10 10 00 FF FF 00 28"])
        clientStep(&c, rx("01 10 10 00 0A"), sends: ["08 04 00 09 00 03 28"])
        clientStep(&c, rx("09 07 05 00 10 06 00 37 2A 08 00 02 09 00 38 2A"), sends: ["08 09 00 09 00 03 28"])
        clientStep(&c, rx("01 08 09 00 0A"), sends: ["04 07 00 07 00"])
        clientStep(&c, rx("05 01 07 00 02 29"), sends: ["12 07 00 01 00"])
        #expect(clientStep(&c, rx("13"), sends: ["08 0A 00 0C 00 03 28"]) == [.subscribed])
        // The first: PnP ID only; the search moves on to the second.
        clientStep(&c, rx("09 07 0B 00 02 0C 00 50 2A"), sends: ["08 0C 00 0C 00 03 28"])
        clientStep(&c, rx("01 08 0C 00 0A"), sends: ["08 0D 00 0F 00 03 28"])
        clientStep(&c, rx("09 07 0E 00 02 0F 00 26 2A"), sends: ["08 0F 00 0F 00 03 28"])
        clientStep(&c, rx("01 08 0F 00 0A"), sends: ["0A 0F 00"])
        #expect(clientStep(&c, rx("0B 35 2E 30 2E 30"), sends: []) == [.firmwareRevision("5.0.0")])
    }
}

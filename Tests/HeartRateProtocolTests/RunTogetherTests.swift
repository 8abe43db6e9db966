import Testing

@testable import HeartRateProtocol

/// Client and server run together in-process: every PDU one sends is handed to the other until
/// both are quiet, across ATT_MTU choices and database shapes a real strap may have.
@Suite("Client with server in-process (Core 5.3 Vol 3 Part G §4)")
struct RunTogetherTests {
    struct Outcome {
        var client: GATTClient
        var server: GATTServer
        var log: [GATTClient.Action]
        var pdus: Int
    }

    static func run(_ client: GATTClient, _ server: GATTServer) -> Outcome {
        var client = client
        var server = server
        var log: [GATTClient.Action] = []
        var toServer: [[UInt8]] = []
        var toClient: [[UInt8]] = []
        var pdus = 0
        func take(_ actions: [GATTClient.Action]) {
            for a in actions { if case .send(let b) = a { toServer.append(b) } else { log.append(a) } }
        }
        _ = server.handle(.connected)
        take(client.handle(.linkUp(nowMs: 0)))
        while !(toServer.isEmpty && toClient.isEmpty) && pdus < 10_000 {
            if !toServer.isEmpty {
                let pdu = toServer.removeFirst()
                for a in server.handle(.received(pdu)) { if case .send(let b) = a { toClient.append(b) } }
                pdus += 1
            }
            if !toClient.isEmpty {
                take(client.handle(.received(toClient.removeFirst(), nowMs: 0)))
                pdus += 1
            }
        }
        return Outcome(client: client, server: server, log: log, pdus: pdus)
    }

    @Test(
        "Vol 3 Part G §4: subscription and reads succeed at ATT_MTU 23, 185 and 517",
        arguments: [nil, 185, 517] as [UInt16?])
    func acrossMTUs(mtu: UInt16?) throws {
        var identity = StrapIdentity.polarH10(id: "1A2B3C4D")
        identity.firmwareRevision = "5.0.0 a deliberately long firmware revision string, longer than ATT_MTU"
        let (server, handles) = GATTServer.heartRateStrap(identity, serverRxMTU: 247)
        let out = Self.run(GATTClient(configuration: .init(clientRxMTU: mtu)), server)
        #expect(out.log.first == .subscribed)
        #expect(out.log.contains(.battery(percent: 100)))
        #expect(out.log.contains(.firmwareRevision(identity.firmwareRevision)))
        #expect(out.client.attMTU == min(Int(mtu ?? 23), 247))
        #expect(out.server.isNotifying(handles.heartRateMeasurement.value))
        #expect(!out.log.contains { if case .failed = $0 { true } else { false } })
    }

    @Test("Vol 3 Part G §4.4.1: a 128-bit vendor service before Heart Rate is stepped over")
    func vendorService() throws {
        // A Polar H10 also lists its measurement-data service under a 128-bit UUID.
        var db = AttributeDatabase()
        db.addService(
            .genericAccess, characteristics: [.init(.deviceName, properties: .read, value: Array("H10".utf8))])
        let pmd = BluetoothUUID(value: 0xFB005C80_02E7_F387_1CAD_8ACD2D8DF0C8)
        db.addService(
            pmd,
            characteristics: [
                .init(
                    BluetoothUUID(value: 0xFB005C81_02E7_F387_1CAD_8ACD2D8DF0C8),
                    properties: [.read, .write, .indicate])
            ])
        let hr = db.addService(.heartRate, characteristics: [.init(.heartRateMeasurement, properties: .notify)])
        let out = Self.run(GATTClient(), GATTServer(database: db))
        #expect(out.log == [.subscribed])
        #expect(out.client.services.map(\.uuid) == [.genericAccess, pmd, .heartRate])
        #expect(out.client.heartRateMeasurement?.value == hr[0].value)
    }

    @Test("Vol 3 Part G §4: a heart-rate sensor without battery or device information still subscribes")
    func minimalSensor() {
        var db = AttributeDatabase()
        db.addService(.heartRate, characteristics: [.init(.heartRateMeasurement, properties: .notify)])
        let out = Self.run(GATTClient(), GATTServer(database: db))
        #expect(out.log == [.subscribed])
        #expect(out.client.nextDeadlineMs == nil)
    }

    @Test("Vol 3 Part G §4: a device without a Heart Rate service is refused with the reason")
    func notAStrap() {
        var db = AttributeDatabase()
        db.addService(.battery, characteristics: [.init(.batteryLevel, properties: .read, value: [50])])
        let out = Self.run(GATTClient(), GATTServer(database: db))
        #expect(out.log == [.failed(.heartRateServiceMissing)])
    }
}

import Testing

@testable import HeartRateProtocol

/// Byte scripts of a client talking to a strap whose database is the virtual strap's layout
/// (see GATTServerTests): services GAP 1–5, GATT 6–9, HR 0x0A–0x0F, Battery 0x10–0x13,
/// Device Information 0x14–0x20; HR Measurement value 0x0C, CCCD 0x0D; Battery Level 0x12;
/// Firmware Revision 0x1E. Responses are hand-assembled per Vol 3 Part F §3.4.
/// One client step: feed `input` at `now`, expect exactly `sends` to be sent, return the rest.
@discardableResult
func clientStep(
    _ client: inout GATTClient, _ event: GATTClient.Event, sends: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) -> [GATTClient.Action] {
    let actions = client.handle(event)
    let sent = actions.compactMap { if case .send(let b) = $0 { b } else { nil } }
    #expect(sent == sends.map(hex), sourceLocation: sourceLocation)
    return actions.filter { if case .send = $0 { false } else { true } }
}

func rx(_ text: String, at now: Int64 = 0) -> GATTClient.Event { .received(hex(text), nowMs: now) }

@Suite("GATT client (Core 5.3 Vol 3 Part G §4, Part F §3.3)")
struct GATTClientTests {
    /// Runs the discovery script up to and including the subscription.
    func discoverAndSubscribe(_ c: inout GATTClient) {
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(
            &c, rx("11 06 01 00 05 00 00 18 06 00 09 00 01 18 0A 00 0F 00 0D 18"), sends: ["10 10 00 FF FF 00 28"])
        clientStep(&c, rx("11 06 10 00 13 00 0F 18 14 00 20 00 0A 18"), sends: ["10 21 00 FF FF 00 28"])
        clientStep(&c, rx("01 10 21 00 0A"), sends: ["08 0A 00 0F 00 03 28"])
        // §4.6.1: the next search starts one past the last declaration (0x0E), so 0x0F is asked too.
        clientStep(&c, rx("09 07 0B 00 10 0C 00 37 2A 0E 00 02 0F 00 38 2A"), sends: ["08 0F 00 0F 00 03 28"])
        clientStep(&c, rx("01 08 0F 00 0A"), sends: ["04 0D 00 0D 00"])
        clientStep(&c, rx("05 01 0D 00 02 29"), sends: ["12 0D 00 01 00"])
        let rest = clientStep(&c, rx("13"), sends: ["08 10 00 13 00 03 28"])
        #expect(rest == [.subscribed])
    }

    @Test("Vol 3 Part G §4.4.1, §4.6.1, §4.7.1, §4.10: discovery to subscription, then battery and firmware reads")
    func fullScript() {
        var c = GATTClient()
        discoverAndSubscribe(&c)
        #expect(c.phase == .subscribed)
        #expect(c.heartRateMeasurement?.value == 0x0C)
        #expect(c.heartRateCCCD == 0x0D)
        // Battery service characteristics, then Battery Level read.
        clientStep(&c, rx("09 07 11 00 12 12 00 19 2A"), sends: ["08 12 00 13 00 03 28"])
        clientStep(&c, rx("01 08 12 00 0A"), sends: ["0A 12 00"])
        #expect(clientStep(&c, rx("0B 57"), sends: ["08 14 00 20 00 03 28"]) == [.battery(percent: 87)])
        // Device Information characteristics (two pages), then the firmware string.
        clientStep(
            &c, rx("09 07 15 00 02 16 00 29 2A 17 00 02 18 00 24 2A 19 00 02 1A 00 25 2A"),
            sends: ["08 1A 00 20 00 03 28"])
        clientStep(
            &c, rx("09 07 1B 00 02 1C 00 27 2A 1D 00 02 1E 00 26 2A 1F 00 02 20 00 28 2A"),
            sends: ["08 20 00 20 00 03 28"])
        clientStep(&c, rx("01 08 20 00 0A"), sends: ["0A 1E 00"])
        #expect(clientStep(&c, rx("0B 33 2E 31 2E 31"), sends: []) == [.firmwareRevision("3.1.1")])
        #expect(c.nextDeadlineMs == nil)
        // Notifications now arrive as measurements stamped with their receive time.
        #expect(
            clientStep(&c, rx("1B 0C 00 10 3C 00 04", at: 5_000), sends: [])
                == [.measurement(HeartRateMeasurement(beatsPerMinute: 60, rrIntervals: [1024]), receivedAtMs: 5_000)])
    }

    @Test("Vol 3 Part F §3.4.2: an optional MTU exchange comes first and sets ATT_MTU")
    func mtuExchange() {
        var c = GATTClient(configuration: .init(clientRxMTU: 185))
        clientStep(&c, .linkUp(nowMs: 0), sends: ["02 B9 00"])
        clientStep(&c, rx("03 F7 00"), sends: ["10 01 00 FF FF 00 28"])
        #expect(c.attMTU == 185)
        // A strap that refuses the exchange leaves ATT_MTU at 23 and discovery goes on.
        var d = GATTClient(configuration: .init(clientRxMTU: 185))
        clientStep(&d, .linkUp(nowMs: 0), sends: ["02 B9 00"])
        clientStep(&d, rx("01 02 00 00 06"), sends: ["10 01 00 FF FF 00 28"])
        #expect(d.attMTU == 23)
    }

    @Test("Vol 3 Part F §3.3.3: no response in 30 s fails the link and nothing more is sent")
    func transactionTimeout() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 1_000), sends: ["10 01 00 FF FF 00 28"])
        #expect(c.nextDeadlineMs == 31_000)
        #expect(clientStep(&c, .tick(nowMs: 30_999), sends: []).isEmpty)
        #expect(
            clientStep(&c, .tick(nowMs: 31_000), sends: []) == [.failed(.transactionTimeout(.readByGroupTypeRequest))])
        #expect(c.nextDeadlineMs == nil)
        // A late response, a battery request or a notification changes nothing.
        #expect(clientStep(&c, rx("11 06 01 00 05 00 00 18"), sends: []).isEmpty)
        #expect(clientStep(&c, .readBatteryLevel(nowMs: 40_000), sends: []).isEmpty)
        #expect(GATTClientFailure.transactionTimeout(.readRequest).description.contains("30 s"))
    }

    @Test("Vol 3 Part F §3.4.1.1: the strap's own requests get answers so it keeps the link")
    func peerRequests() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        // Exchange MTU from the strap: answered with our Rx MTU (23 without configuration).
        clientStep(&c, rx("02 F7 00"), sends: ["03 17 00"])
        // The box's database is empty: discovery finds nothing, reads name an invalid handle,
        // what the box does not serve is Request Not Supported.
        clientStep(&c, rx("10 01 00 FF FF 00 28"), sends: ["01 10 01 00 0A"])
        clientStep(&c, rx("08 01 00 FF FF 03 28"), sends: ["01 08 01 00 0A"])
        clientStep(&c, rx("04 01 00 FF FF"), sends: ["01 04 01 00 0A"])
        clientStep(&c, rx("0A 03 00"), sends: ["01 0A 03 00 01"])
        clientStep(&c, rx("0E 03 00 04 00"), sends: ["01 0E 00 00 06"])
        clientStep(&c, rx("3C 00"), sends: ["01 3C 00 00 06"])
        // A malformed request: Invalid PDU. A command: nothing.
        #expect(
            clientStep(&c, rx("0A 03"), sends: ["01 0A 00 00 04"]) == [
                .malformed(.pdu(.invalidLength(opcode: .readRequest, parameterLength: 1)))
            ])
        clientStep(&c, rx("52 03 00 01"), sends: [])
        // Our own request is still the one outstanding; its answer continues discovery.
        clientStep(&c, rx("01 10 01 00 0A"), sends: [])
        #expect(c.phase == .failed(.heartRateServiceMissing))
    }

    @Test("Vol 3 Part G §4.4.1: Attribute Not Found ends service discovery; no Heart Rate service fails")
    func noHeartRate() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(&c, rx("11 06 01 00 05 00 00 18 06 00 09 00 01 18"), sends: ["10 0A 00 FF FF 00 28"])
        #expect(clientStep(&c, rx("01 10 0A 00 0A"), sends: []) == [.failed(.heartRateServiceMissing)])
    }

    @Test("Vol 3 Part G §4.4.1: a group ending at 0xFFFF ends service discovery without another request")
    func lastGroup() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(&c, rx("11 06 01 00 FF FF 0D 18"), sends: ["08 01 00 FF FF 03 28"])
    }

    @Test("Vol 3 Part G §4.10: notifications during discovery are delivered, early ones once the handle is known")
    func notificationsDuringDiscovery() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        // A bonded strap notifies before we know which handle is the measurement: held back.
        #expect(clientStep(&c, rx("1B 0C 00 10 3C 00 04", at: 100), sends: []).isEmpty)
        clientStep(&c, rx("11 06 0A 00 0F 00 0D 18"), sends: ["10 10 00 FF FF 00 28"])
        clientStep(&c, rx("01 10 10 00 0A"), sends: ["08 0A 00 0F 00 03 28"])
        // Characteristic discovery names 0x000C: the held notification comes out, stamped 100 ms.
        clientStep(&c, rx("09 07 0B 00 10 0C 00 37 2A 0E 00 02 0F 00 38 2A", at: 200), sends: ["08 0F 00 0F 00 03 28"])
        let out = clientStep(&c, rx("01 08 0F 00 0A", at: 200), sends: ["04 0D 00 0D 00"])
        #expect(out == [.measurement(HeartRateMeasurement(beatsPerMinute: 60, rrIntervals: [1024]), receivedAtMs: 100)])
        // During descriptor discovery: delivered at once.
        #expect(
            clientStep(&c, rx("1B 0C 00 10 3D 10 04", at: 300), sends: [])
                == [.measurement(HeartRateMeasurement(beatsPerMinute: 61, rrIntervals: [1040]), receivedAtMs: 300)])
        // A malformed value is reported for counting and the procedure continues.
        #expect(
            clientStep(&c, rx("1B 0C 00 10 3D 10", at: 400), sends: []) == [
                .malformed(.heartRateMeasurement(.oddRRByteCount(1)))
            ])
        clientStep(&c, rx("05 01 0D 00 02 29"), sends: ["12 0D 00 01 00"])
    }

    @Test("Vol 3 Part F §3.4.7.2: an indication is confirmed, whatever its handle")
    func indicationConfirmed() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(&c, rx("1D 08 00 01 00 FF FF"), sends: ["1E"])
    }

    @Test("Vol 3 Part G §4.12.3: a refused CCCD write fails the link with the strap's reason")
    func refusedSubscription() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(&c, rx("11 06 0A 00 0F 00 0D 18"), sends: ["10 10 00 FF FF 00 28"])
        clientStep(&c, rx("01 10 10 00 0A"), sends: ["08 0A 00 0F 00 03 28"])
        clientStep(&c, rx("09 07 0B 00 10 0C 00 37 2A"), sends: ["08 0C 00 0F 00 03 28"])
        clientStep(&c, rx("01 08 0C 00 0A"), sends: ["04 0D 00 0F 00"])
        clientStep(&c, rx("05 01 0D 00 02 29"), sends: ["12 0D 00 01 00"])
        let out = clientStep(&c, rx("01 12 0D 00 05"), sends: [])
        #expect(out == [.failed(.refused(.writeRequest, .insufficientAuthentication))])
        #expect(
            GATTClientFailure.refused(.writeRequest, .insufficientAuthentication).description
                == "the strap refused a Write Request: the strap requires pairing (authentication) first")
    }

    @Test("Vol 3 Part G §4.6.1: a measurement without notify or without a CCCD fails with its reason")
    func characteristicProblems() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(&c, rx("11 06 0A 00 0F 00 0D 18"), sends: ["10 10 00 FF FF 00 28"])
        clientStep(&c, rx("01 10 10 00 0A"), sends: ["08 0A 00 0F 00 03 28"])
        clientStep(&c, rx("09 07 0B 00 02 0C 00 37 2A 0E 00 02 0F 00 38 2A"), sends: ["08 0F 00 0F 00 03 28"])
        #expect(clientStep(&c, rx("01 08 0F 00 0A"), sends: []) == [.failed(.notificationsUnsupported)])

        var d = GATTClient()
        clientStep(&d, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(&d, rx("11 06 0A 00 0F 00 0D 18"), sends: ["10 10 00 FF FF 00 28"])
        clientStep(&d, rx("01 10 10 00 0A"), sends: ["08 0A 00 0F 00 03 28"])
        clientStep(&d, rx("09 07 0B 00 10 0C 00 37 2A 0E 00 02 0F 00 38 2A"), sends: ["08 0F 00 0F 00 03 28"])
        clientStep(&d, rx("01 08 0F 00 0A"), sends: ["04 0D 00 0D 00"])
        #expect(clientStep(&d, rx("05 01 0D 00 01 29"), sends: []) == [.failed(.cccdMissing)])
    }

    @Test("Vol 3 Part F §3.4.4.10: service groups going backwards are an impossible response, not a loop")
    func backwardsHandles() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(&c, rx("11 06 0A 00 0F 00 0D 18"), sends: ["10 10 00 FF FF 00 28"])
        #expect(
            clientStep(&c, rx("11 06 01 00 05 00 00 18"), sends: []) == [
                .failed(.invalidResponse(.readByGroupTypeResponse))
            ])
    }

    @Test("Vol 3 Part F §3.3.2: a response with no matching request is dropped and counted")
    func unexpectedResponse() {
        var c = GATTClient()
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        #expect(clientStep(&c, rx("0B 55"), sends: []) == [.malformed(.unexpectedResponse(.readResponse))])
        #expect(clientStep(&c, rx("01 0A 12 00 0A"), sends: []) == [.malformed(.unexpectedResponse(.errorResponse))])
        // The outstanding request still completes normally.
        clientStep(&c, rx("11 06 0A 00 0F 00 0D 18"), sends: ["10 10 00 FF FF 00 28"])
        // A malformed answer to the outstanding request fails the link.
        #expect(
            clientStep(&c, rx("11 03 01 00 07"), sends: [])
                == [
                    .failed(
                        .malformedResponse(
                            .invalidList(opcode: .readByGroupTypeResponse, elementLength: 3, parameterLength: 4)))
                ])
    }

    @Test("Vol 3 Part G §4.8.3: a firmware string longer than ATT_MTU − 1 is read with Read Blob")
    func longFirmware() {
        var c = GATTClient(configuration: .init(readsBatteryLevel: false))
        clientStep(&c, .linkUp(nowMs: 0), sends: ["10 01 00 FF FF 00 28"])
        clientStep(&c, rx("11 06 0A 00 0F 00 0D 18 14 00 20 00 0A 18"), sends: ["10 21 00 FF FF 00 28"])
        clientStep(&c, rx("01 10 21 00 0A"), sends: ["08 0A 00 0F 00 03 28"])
        clientStep(&c, rx("09 07 0B 00 10 0C 00 37 2A"), sends: ["08 0C 00 0F 00 03 28"])
        clientStep(&c, rx("01 08 0C 00 0A"), sends: ["04 0D 00 0F 00"])
        clientStep(&c, rx("05 01 0D 00 02 29"), sends: ["12 0D 00 01 00"])
        clientStep(&c, rx("13"), sends: ["08 14 00 20 00 03 28"])
        clientStep(&c, rx("09 07 1D 00 02 1E 00 26 2A"), sends: ["08 1E 00 20 00 03 28"])
        clientStep(&c, rx("01 08 1E 00 0A"), sends: ["0A 1E 00"])
        let first = Array("2.0.11 build 2024-05-1".utf8)  // 22 octets = ATT_MTU − 1
        #expect(first.count == 22)
        clientStep(&c, .received([0x0B] + first, nowMs: 0), sends: ["0C 1E 00 16 00"])
        let out = clientStep(&c, .received([0x0D] + Array("7".utf8), nowMs: 0), sends: [])
        #expect(out == [.firmwareRevision("2.0.11 build 2024-05-17")])
    }

    @Test("Vol 3 Part F §3.3.2: a battery re-read waits for the outstanding request")
    func queuedBatteryRead() {
        var c = GATTClient()
        discoverAndSubscribe(&c)
        // Battery characteristic discovery is outstanding; the request is queued, not sent.
        clientStep(&c, .readBatteryLevel(nowMs: 10), sends: [])
        clientStep(&c, rx("09 07 11 00 12 12 00 19 2A"), sends: ["08 12 00 13 00 03 28"])
        clientStep(&c, rx("01 08 12 00 0A"), sends: ["0A 12 00"])
        #expect(clientStep(&c, rx("0B 50"), sends: ["0A 12 00"]) == [.battery(percent: 80)])
        #expect(clientStep(&c, rx("0B 4F"), sends: ["08 14 00 20 00 03 28"]) == [.battery(percent: 79)])
        // A battery notification is read too; a level above 100 % is dropped and counted.
        #expect(clientStep(&c, rx("1B 12 00 4E"), sends: []) == [.battery(percent: 78)])
        #expect(clientStep(&c, rx("1B 12 00 C8"), sends: []) == [.malformed(.batteryLevel([200]))])
    }
}

import HeartRateProtocol
import Platform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import BlueZ

/// The `StrapLink` driven over a socket pair with literal ATT byte scripts and a hand-moved clock
/// (Bluetooth Core 5.3 Vol 3 Part F for the PDUs, Part G for the procedures; nothing sleeps).
@Suite struct StrapLinkTests {
    static let adapter = BluetoothAddress("00:AA:01:02:00:02")!
    static let strapAddress = BluetoothAddress("A0:9E:1A:12:34:56")!

    final class Harness {
        let transport = SocketPairTransport()
        let link: StrapLink
        var nowMs: Int64 = 1_000
        var events: [StrapLinkEvent] = []
        /// The strap's side: the protocol's own GATT server with an H10's database.
        var server: GATTServer
        let handles: HeartRateStrapHandles
        /// Every PDU the link sent, in order.
        var sent: [[UInt8]] = []

        init(management: ManagementSocket? = nil, configure: (inout StrapLink.Configuration) -> Void = { _ in }) throws
        {
            var configuration = StrapLink.Configuration(
                adapter: StrapLinkTests.adapter, strap: StrapLinkTests.strapAddress, strapType: .leRandom)
            configure(&configuration)
            link = try StrapLink(configuration, transport: transport, management: management)
            var identity = StrapIdentity.polarH10(id: "1A2B3C4D")
            identity.batteryPercent = 87
            identity.firmwareRevision = "3.1.1"
            (server, handles) = GATTServer.heartRateStrap(identity)
        }

        var strap: FakeStrap { transport.strap }
        var states: [String] { events.compactMap { if case .state(let s) = $0 { s.name } else { nil } } }
        var samples: [StrapSample] { events.compactMap { if case .sample(let s) = $0 { s } else { nil } } }

        func start() { events += link.start(nowMs: nowMs) }
        func readable() { events += link.onReadable(nowMs: nowMs) }
        func advance(to ms: Int64) {
            nowMs = ms
            events += link.onDeadline(nowMs: nowMs)
        }

        /// The strap answers what the link sent, and the link reads the answers, until both are quiet.
        func serve() {
            _ = server.handle(.connected)
            var quiet = false
            while !quiet {
                quiet = true
                while let pdu = strap.received() {
                    sent.append(pdu)
                    for case .send(let answer) in server.handle(.received(pdu)) { strap.send(answer) }
                    quiet = false
                }
                nowMs += 2
                readable()
            }
        }

        /// The strap notifies a Heart Rate Measurement value.
        func notify(_ value: [UInt8]) {
            strap.send(
                ATTPDU.handleValueNotification(handle: handles.heartRateMeasurement.value, value: value).encoded())
            readable()
        }
    }

    /// Flags 0x10 (RR present, 8-bit HR), 60 bpm, RR 1024 and 1040 (HRS 1.0 §3.1).
    static let measurementWithRR: [UInt8] = [0x10, 0x3C, 0x00, 0x04, 0x10, 0x04]
    /// Flags 0x00, 61 bpm, no RR.
    static let measurementHROnly: [UInt8] = [0x00, 0x3D]

    @Test("Vol 3 Part G §4.4.1–§4.10: discovery, 01 00 to the CCCD, RR as notified, battery and firmware")
    func discoversTheHeartRateServiceSubscribesAndDeliversRRAsReceived() throws {
        let h = try Harness()
        h.start()
        h.serve()
        let cccd = h.handles.heartRateMeasurement.cccd!
        // Part G §3.3.3.3: Write Request of 01 00 to the measurement's CCCD enables notifications.
        #expect(h.sent.contains([0x12, UInt8(cccd & 0xFF), UInt8(cccd >> 8), 0x01, 0x00]))
        h.nowMs = 2_000
        h.notify(Self.measurementWithRR)
        #expect(h.states == ["connecting", "discovering", "live", "rrOK"])
        #expect(h.events.contains(.battery(percent: 87)))
        #expect(h.events.contains(.firmware("3.1.1")))
        #expect(h.samples == [StrapSample(receivedAtMs: 2_000, bpm: 60, rrRaw: [1024, 1040])])
        #expect(h.link.statistics.firstRRAfterConnectMs == 1_000)
        #expect(h.link.statistics.firstLiveAfterConnectMs! > 0 && h.link.statistics.firstLiveAfterConnectMs! < 1_000)
        #expect(h.link.nextDeadlineMs == nil, "nothing pending once live: no wake-ups while idle")
    }

    @Test("Spec §4.1: five notifications without RR give the exact HR-only sentence; RR lifts it")
    func heartRateOnlyNotificationsGiveTheSpecSentenceAfterFive() throws {
        // RecoveryDeck spec §4.1: HR-only → the exact sentence, degraded mode.
        let h = try Harness()
        h.start()
        h.serve()
        for second in 1...4 {
            h.nowMs = 2_000 + Int64(second) * 1_000
            h.notify(Self.measurementHROnly)
        }
        #expect(h.link.state == .live, "four BPM-only notifications can be a slow heart; not yet degraded")
        h.notify(Self.measurementHROnly)
        #expect(h.link.state == .heartRateOnly)
        #expect(
            h.link.state.message
                == "RR intervals not available — ensure H10 is snug, charged, and not connected exclusively elsewhere; prefer H10 in heart rate mode."
        )
        #expect(h.samples.count == 5 && h.samples.allSatisfy { $0.bpm == 61 && $0.rrRaw.isEmpty })
        h.notify(Self.measurementWithRR)
        #expect(h.link.state == .rrOK, "RR coming back lifts degraded mode")
    }

    @Test("DESIGN §5: a lost link is seen and reconnects by itself after the first back-off step")
    func aLostLinkIsSeenAndReconnectsByItselfAfterTheFirstBackoffStep() throws {
        let h = try Harness()
        h.start()
        h.serve()
        h.notify(Self.measurementWithRR)
        h.transport.hangUp()
        h.nowMs = 5_000
        h.readable()
        #expect(h.link.state == .reconnecting(retryAtMs: 5_250))
        #expect(h.states.suffix(2) == ["lost", "reconnecting"])
        #expect(h.events.contains(.state(.lost(.closedByStrap))))
        #expect(h.link.nextDeadlineMs == 5_250)
        h.advance(to: 5_249)
        #expect(h.transport.connectCalls == 1, "no attempt before the back-off delay")
        h.advance(to: 5_250)
        #expect(h.transport.connectCalls == 2)
        #expect(h.link.state == .discovering)
        h.serve()
        h.notify(Self.measurementWithRR)
        #expect(h.link.state == .rrOK)
        #expect(h.link.statistics.losses == 1 && h.link.statistics.connections == 2)
    }

    @Test("DESIGN §5: a connect that never completes times out with the strap-held-elsewhere sentence")
    func aConnectionAttemptThatNeverCompletesTimesOutWithTheBusyStrapSentence() throws {
        let h = try Harness()
        h.transport.plans = [.pending, .pending, .pending]
        h.start()
        #expect(h.link.state == .connecting(attempt: 1))
        #expect(h.link.nextDeadlineMs == 11_000)
        h.advance(to: 11_000)
        let failures = h.events.compactMap { if case .connectFailed(let e) = $0 { e } else { nil } }
        #expect(failures == [.strapUnreachable(address: Self.strapAddress, seconds: 10)])
        #expect(failures.first?.description.contains("the strap may be connected to a phone app") == true)
        #expect(h.link.state == .reconnecting(retryAtMs: 11_250))
        h.advance(to: 11_250)
        #expect(h.link.state == .connecting(attempt: 2))
        h.advance(to: 21_250)
        #expect(h.link.state == .reconnecting(retryAtMs: 21_750), "the second failure waits 500 ms")
    }

    @Test("Vol 3 Part F §3.4.2, §3.4.9: the strap's own requests are answered so it keeps the link")
    func theStrapsOwnRequestsAreAnsweredSoItKeepsTheLink() throws {
        // DESIGN §5: an unanswered request makes the peer drop the link.
        let h = try Harness()
        h.start()
        _ = h.strap.received()  // our first discovery request stays outstanding
        h.strap.send([0x02, 0xF7, 0x00])  // Exchange MTU Request, client Rx MTU 247
        h.readable()
        #expect(h.strap.received() == [0x03, 0x17, 0x00], "Exchange MTU Response with ATT_MTU 23")
        h.strap.send([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])  // it discovers our (empty) database
        h.readable()
        #expect(h.strap.received() == [0x01, 0x10, 0x01, 0x00, 0x0A], "Attribute Not Found")
        h.strap.send([0x16, 0x03, 0x00, 0x00, 0x00, 0xAA])  // Prepare Write Request: not supported
        h.readable()
        #expect(h.strap.received() == [0x01, 0x16, 0x00, 0x00, 0x06], "Request Not Supported")
        h.strap.send([0x52, 0x03, 0x00, 0x01])  // a Write Command gets no answer
        h.readable()
        #expect(h.strap.received() == nil)
        #expect(h.link.state == .discovering)
    }

    @Test("Vol 3 Part F §3.3.3: a request unanswered for 30 s closes the bearer")
    func anUnansweredRequestClosesTheBearerAfterThirtySeconds() throws {
        // Vol 3 Part F §3.3.3: a transaction not completed within 30 s has timed out.
        let h = try Harness()
        h.start()
        #expect(h.link.nextDeadlineMs == 31_000)
        h.advance(to: 30_999)
        #expect(h.link.state == .discovering)
        h.advance(to: 31_000)
        #expect(h.events.contains(.state(.lost(.transactionTimeout))))
        #expect(h.link.state == .reconnecting(retryAtMs: 31_250))
    }

    @Test("HRS 1.0 §3.1: a malformed measurement is counted and the link goes on")
    func aMalformedMeasurementIsCountedAndTheLinkGoesOn() throws {
        let h = try Harness()
        h.start()
        h.serve()
        h.notify([0x10, 0x3C, 0x00])  // RR flag with one stray byte
        #expect(h.events.contains(.malformed(.heartRateMeasurement(.oddRRByteCount(1)))))
        #expect(h.link.statistics.malformedMeasurements == 1)
        h.notify(Self.measurementWithRR)
        #expect(h.samples.count == 1 && h.link.state == .rrOK)
    }

    @Test("Vol 3 Part G §4.4.1: a device without the Heart Rate service fails without retrying")
    func aDeviceWithoutHeartRateServiceFailsWithoutRetrying() throws {
        let h = try Harness()
        h.start()
        _ = h.strap.received()
        h.strap.send([0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18])  // GAP only
        h.readable()
        _ = h.strap.received()
        h.strap.send([0x01, 0x10, 0x06, 0x00, 0x0A])
        h.readable()
        #expect(h.link.state == .failed(.noHeartRateService(address: Self.strapAddress)))
        #expect(h.link.nextDeadlineMs == nil)
    }

    @Test("HRS 1.0 §3.1.1.2: no skin contact or a zero rate gives no BPM, RR kept")
    func noSkinContactOrZeroRateMeansNoBPM() throws {
        let h = try Harness()
        h.start()
        h.serve()
        h.notify([0x14, 0x48, 0x00, 0x04])  // contact supported, not detected, RR 1024
        h.notify([0x00, 0x00])  // 0 bpm
        #expect(h.samples.map(\.bpm) == [nil, nil])
        #expect(h.samples.first?.rrRaw == [1024])
    }

    @Test("DESIGN §5, Core 5.3 Vol 6 Part B §1.3: every attempt dials the strap with its own address type")
    func everyAttemptDialsTheStrapsAddressType() throws {
        for type in [BluetoothAddressType.leRandom, .lePublic] {
            let h = try Harness { $0.strapType = type }
            h.start()
            h.serve()
            h.transport.hangUp()
            h.readable()
            h.advance(to: h.link.nextDeadlineMs!)
            #expect(h.transport.dialled.count == 2)
            #expect(h.transport.dialled.allSatisfy { $0.0 == Self.strapAddress && $0.1 == type })
        }
    }

    @Test("stop() closes the link and nothing wakes the loop afterwards")
    func stopClosesTheLinkAndStaysIdle() throws {
        let h = try Harness()
        h.start()
        h.serve()
        h.events += h.link.stop()
        #expect(h.link.state == .idle)
        #expect(h.link.nextDeadlineMs == nil)
        #expect(h.strap.received() == nil)
    }

    @Test("A link whose own epoll set cannot be read fails once, for good, with the reason, and stays quiet")
    func aLinkWhoseSetCannotBeReadFailsOnce() throws {
        let h = try Harness()
        h.start()
        h.serve()
        #expect(h.link.state.isLive)
        // The set's number made /dev/null: epoll_wait on it fails (EINVAL).
        let null = open("/dev/null", O_RDONLY)
        #expect(null >= 0)
        #expect(dup2(null, h.link.descriptor.rawValue) == h.link.descriptor.rawValue)
        close(null)
        h.events = []
        h.readable()
        #expect(h.link.readinessFailure == Errno(rawValue: EINVAL))
        #expect(h.states == ["failed"])
        #expect(h.link.state.message?.contains("epoll_wait") == true, "\(h.link.state)")
        #expect(h.link.nextDeadlineMs == nil, "no retry on a set that is gone")
        h.readable()
        #expect(h.states == ["failed"], "reported once")
        #expect(h.link.start(nowMs: h.nowMs).isEmpty, "the owner makes a new link instead")
    }
}

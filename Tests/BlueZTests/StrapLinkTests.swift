import HeartRateProtocol
import Platform
import Testing

@testable import BlueZ

/// The `StrapLink` driven over a socket pair with literal ATT byte scripts and a hand-moved clock
/// (Bluetooth Core 5.3 Vol 3 Part F for the PDUs, Part G for the procedures; nothing sleeps).
@Suite struct StrapLinkTests {
    static let adapter = BluetoothAddress("00:AA:01:02:00:02")!
    static let strapAddress = BluetoothAddress("A0:9E:1A:12:34:56")!

    /// An H10-like database: GAP 0x0001–0x0005, Heart Rate 0x0006–0x000B (measurement value 0x0008,
    /// CCCD 0x0009), Battery 0x000C–0x000E (level 0x000E), Device Information 0x000F–0x0013
    /// (firmware revision 0x0013). Each step: what the link must send, then the strap's answer.
    static let discoveryScript: [(request: [UInt8], response: [UInt8])] = [
        // §3.4.4.9 Read By Group Type Request for «Primary Service», 0x0001–0xFFFF.
        ([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28],
         [0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00, 0x0B, 0x00, 0x0D, 0x18, 0x0C, 0x00, 0x0E, 0x00, 0x0F, 0x18]),
        ([0x10, 0x0F, 0x00, 0xFF, 0xFF, 0x00, 0x28], [0x11, 0x06, 0x0F, 0x00, 0x13, 0x00, 0x0A, 0x18]),
        // Attribute Not Found ends the discovery normally (Part G §4.4.1).
        ([0x10, 0x14, 0x00, 0xFF, 0xFF, 0x00, 0x28], [0x01, 0x10, 0x14, 0x00, 0x0A]),
        // §3.4.4.1 Read By Type Request for «Characteristic».
        ([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28],
         [0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A, 0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A,
          0x07, 0x00, 0x10, 0x08, 0x00, 0x37, 0x2A]),
        ([0x08, 0x08, 0x00, 0xFF, 0xFF, 0x03, 0x28],
         [0x09, 0x07, 0x0A, 0x00, 0x02, 0x0B, 0x00, 0x38, 0x2A, 0x0D, 0x00, 0x12, 0x0E, 0x00, 0x19, 0x2A,
          0x10, 0x00, 0x02, 0x11, 0x00, 0x29, 0x2A]),
        ([0x08, 0x11, 0x00, 0xFF, 0xFF, 0x03, 0x28], [0x09, 0x07, 0x12, 0x00, 0x02, 0x13, 0x00, 0x26, 0x2A]),
        ([0x08, 0x13, 0x00, 0xFF, 0xFF, 0x03, 0x28], [0x01, 0x08, 0x13, 0x00, 0x0A]),
        // §3.4.3.1 Find Information over the measurement's descriptors (0x0009 only).
        ([0x04, 0x09, 0x00, 0x09, 0x00], [0x05, 0x01, 0x09, 0x00, 0x02, 0x29]),
        // §3.4.5.1 Write Request 01 00 to the CCCD (Part G §3.3.3.3: notifications on).
        ([0x12, 0x09, 0x00, 0x01, 0x00], [0x13]),
        // §3.4.4.3 Read Request: Battery Level 87 %, then Firmware Revision "3.1.1".
        ([0x0A, 0x0E, 0x00], [0x0B, 0x57]),
        ([0x0A, 0x13, 0x00], [0x0B, 0x33, 0x2E, 0x31, 0x2E, 0x31]),
    ]

    /// Flags 0x10 (RR present, 8-bit HR), 60 bpm, RR 1024 and 1040 (HRS 1.0 §3.1).
    static let notificationWithRR: [UInt8] = [0x1B, 0x08, 0x00, 0x10, 0x3C, 0x00, 0x04, 0x10, 0x04]
    /// Flags 0x00, 61 bpm, no RR.
    static let notificationHROnly: [UInt8] = [0x1B, 0x08, 0x00, 0x00, 0x3D]

    final class Harness {
        let transport = SocketPairTransport()
        let link: StrapLink
        var nowMs: Int64 = 1_000
        var events: [StrapLinkEvent] = []

        init(configure: (inout StrapLink.Configuration) -> Void = { _ in }) throws {
            var configuration = StrapLink.Configuration(
                adapter: StrapLinkTests.adapter, strap: StrapLinkTests.strapAddress, strapType: .leRandom)
            configure(&configuration)
            link = try StrapLink(configuration, transport: transport)
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

        /// Plays the discovery script: each request must be exactly what the link sent.
        func discover(script: [(request: [UInt8], response: [UInt8])] = StrapLinkTests.discoveryScript) {
            for (index, step) in script.enumerated() {
                let sent = strap.received()
                #expect(sent == step.request, "step \(index): the link sent \(sent ?? []), want \(step.request)")
                strap.send(step.response)
                nowMs += 5
                readable()
            }
        }
    }

    @Test func discoversTheHeartRateServiceSubscribesAndDeliversRRAsReceived() throws {
        let h = try Harness()
        h.start()
        h.discover()
        #expect(h.strap.received() == nil, "nothing more than the script was sent")
        h.nowMs = 2_000
        h.strap.send(Self.notificationWithRR)
        h.readable()
        #expect(h.states == ["connecting", "discovering", "live", "rrOK"])
        #expect(h.events.contains(.battery(percent: 87)))
        #expect(h.events.contains(.firmware("3.1.1")))
        #expect(h.samples == [StrapSample(receivedAtMs: 2_000, bpm: 60, rrRaw: [1024, 1040])])
        #expect(h.link.statistics.firstRRAfterConnectMs == 1_000)
        #expect(h.link.nextDeadlineMs == nil, "nothing pending once live: no wake-ups while idle")
    }

    @Test func heartRateOnlyNotificationsGiveTheSpecSentenceAfterFive() throws {
        // RecoveryDeck spec §4.1: HR-only → the exact sentence, degraded mode.
        let h = try Harness()
        h.start()
        h.discover()
        for second in 1...4 {
            h.nowMs = 2_000 + Int64(second) * 1_000
            h.strap.send(Self.notificationHROnly)
            h.readable()
        }
        #expect(h.link.state == .live, "four BPM-only notifications can be a slow heart; not yet degraded")
        h.strap.send(Self.notificationHROnly)
        h.readable()
        #expect(h.link.state == .heartRateOnly)
        #expect(
            h.link.state.message
                == "RR intervals not available — ensure H10 is snug, charged, and not connected exclusively elsewhere; prefer H10 in heart rate mode."
        )
        #expect(h.samples.count == 5 && h.samples.allSatisfy { $0.bpm == 61 && $0.rrRaw.isEmpty })
        h.strap.send(Self.notificationWithRR)
        h.readable()
        #expect(h.link.state == .rrOK, "RR coming back lifts degraded mode")
    }

    @Test func aLostLinkIsSeenAndReconnectsByItselfAfterTheFirstBackoffStep() throws {
        let h = try Harness()
        h.start()
        h.discover()
        h.strap.send(Self.notificationWithRR)
        h.readable()
        h.strap.hangUp()
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
        h.discover()
        h.strap.send(Self.notificationWithRR)
        h.readable()
        #expect(h.link.state == .rrOK)
        #expect(h.link.statistics.losses == 1 && h.link.statistics.connections == 2)
    }

    @Test func aConnectionAttemptThatNeverCompletesTimesOutWithTheBusyStrapSentence() throws {
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

    @Test func theStrapsOwnRequestsAreAnsweredSoItKeepsTheLink() throws {
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

    @Test func anUnansweredRequestClosesTheBearerAfterThirtySeconds() throws {
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

    @Test func aMalformedMeasurementIsCountedAndTheLinkGoesOn() throws {
        let h = try Harness()
        h.start()
        h.discover()
        h.strap.send([0x1B, 0x08, 0x00, 0x10, 0x3C, 0x00])  // RR flag with one stray byte
        h.readable()
        #expect(h.events.contains(.malformedMeasurement(.oddRRByteCount(1))))
        #expect(h.link.statistics.malformedMeasurements == 1)
        h.strap.send(Self.notificationWithRR)
        h.readable()
        #expect(h.samples.count == 1 && h.link.state == .rrOK)
    }

    @Test func aDeviceWithoutHeartRateServiceFailsWithoutRetrying() throws {
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

    @Test func noSkinContactOrZeroRateMeansNoBPM() throws {
        let h = try Harness()
        h.start()
        h.discover()
        h.strap.send([0x1B, 0x08, 0x00, 0x14, 0x48, 0x00, 0x04])  // contact supported, not detected, RR 1024
        h.readable()
        h.strap.send([0x1B, 0x08, 0x00, 0x00, 0x00])  // 0 bpm
        h.readable()
        #expect(h.samples.map(\.bpm) == [nil, nil])
        #expect(h.samples.first?.rrRaw == [1024])
    }

    @Test func stopClosesTheLinkAndStaysIdle() throws {
        let h = try Harness()
        h.start()
        h.discover()
        h.events += h.link.stop()
        #expect(h.link.state == .idle)
        #expect(h.link.nextDeadlineMs == nil)
        #expect(h.strap.received() == nil)
    }
}

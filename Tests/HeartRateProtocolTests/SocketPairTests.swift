import Platform
import TestSupport
import Testing

@testable import HeartRateProtocol

/// Client and server state machines talking through a real kernel socket pair; the test is the
/// event loop and moves a fake clock. Nothing sleeps: every read finds what the peer wrote.
@Suite("Client and server over socketpair(AF_UNIX, SOCK_SEQPACKET)")
struct SocketPairTests {
    /// The box's side of the loop: drives a GATTClient from its socket end and logs its actions.
    struct Box {
        var client: GATTClient
        var log: [GATTClient.Action] = []

        mutating func perform(_ actions: [GATTClient.Action], on fd: FileDescriptor) throws {
            for action in actions {
                if case .send(let bytes) = action { try fd.write(bytes) } else { log.append(action) }
            }
        }
    }

    /// The strap's side: a GATTServer on the other end.
    struct Strap {
        var server: GATTServer
        let handles: HeartRateStrapHandles
        var requestsServed = 0

        mutating func perform(_ actions: [GATTServer.Action], on fd: FileDescriptor) throws {
            for action in actions {
                if case .send(let bytes) = action {
                    try fd.write(bytes)
                    requestsServed += 1
                }
            }
        }
    }

    /// Shuttles PDUs both ways until neither end has anything to read. Returns PDUs exchanged.
    @discardableResult
    static func pump(_ box: inout Box, _ strap: inout Strap, _ pair: SeqPacketPair, now: Int64) throws -> Int {
        var moved = 0
        while true {
            var progressed = false
            if let pdu = try SeqPacketPair.readPDU(pair.strap) {
                try strap.perform(strap.server.handle(.received(pdu)), on: pair.strap)
                progressed = true
            }
            if let pdu = try SeqPacketPair.readPDU(pair.box) {
                try box.perform(box.client.handle(.received(pdu, nowMs: now)), on: pair.box)
                progressed = true
            }
            if !progressed { return moved }
            moved += 1
            if moved > 10_000 {
                Issue.record("no quiescence after 10 000 PDUs")
                return moved
            }
        }
    }

    @Test("Vol 3 Part G §4: the box's client discovers, subscribes and receives every RR from the strap's server")
    func endToEnd() throws {
        let pair = try SeqPacketPair()
        defer { pair.close() }
        var identity = StrapIdentity.polarH10(id: "1A2B3C4D")
        identity.batteryPercent = 73
        let (server, handles) = GATTServer.heartRateStrap(identity)
        var strap = Strap(server: server, handles: handles)
        var box = Box(client: GATTClient())
        var now: Int64 = 0
        _ = strap.server.handle(.connected)
        try box.perform(box.client.handle(.linkUp(nowMs: now)), on: pair.box)
        try Self.pump(&box, &strap, pair, now: now)
        #expect(box.log.contains(.subscribed))
        #expect(box.log.contains(.battery(percent: 73)))
        #expect(box.log.contains(.firmwareRevision("3.1.1")))
        #expect(strap.server.isNotifying(handles.heartRateMeasurement.value))
        #expect(box.client.nextDeadlineMs == nil)

        // A minute of RR, about one notification a second, some seconds with no beat, some with two.
        var sentRR: [UInt16] = []
        var rng = SplitMix64(seed: 7)
        for second in 1...60 {
            now = Int64(second) * 1000
            let count = Int(rng.next() % 3)
            let rr = (0..<count).map { _ in UInt16(800 + rng.next() % 400) }
            sentRR += rr
            let m = HeartRateMeasurement(beatsPerMinute: 62, sensorContact: .detected, rrIntervals: rr)
            for pdu in strap.server.notifications(for: m, at: handles.heartRateMeasurement.value) {
                try pair.strap.write(pdu)
            }
            try Self.pump(&box, &strap, pair, now: now)
        }
        let received = box.log.compactMap { if case .measurement(let m, _) = $0 { m } else { nil } }
        #expect(received.count == 60)
        #expect(received.flatMap(\.rrIntervals) == sentRR)
        #expect(received.allSatisfy { $0.beatsPerMinute == 62 && $0.sensorContact == .detected })
        #expect(!box.log.contains { if case .malformed = $0 { true } else { false } })
    }

    @Test("Vol 3 Part F §3.4.2, §3.4.1.1: with MTU exchange, the strap's own requests answered mid-discovery")
    func strapRequestsDuringDiscovery() throws {
        let pair = try SeqPacketPair()
        defer { pair.close() }
        let (server, handles) = GATTServer.heartRateStrap(.polarH10(id: "00C0FFEE"), serverRxMTU: 232)
        var strap = Strap(server: server, handles: handles)
        var box = Box(client: GATTClient(configuration: .init(clientRxMTU: 185)))
        try box.perform(box.client.handle(.linkUp(nowMs: 0)), on: pair.box)
        // Before the strap answers anything, it sends its own MTU exchange and a discovery request.
        try pair.strap.write(hex("02 F7 00"))
        try pair.strap.write(hex("10 01 00 FF FF 00 28"))
        // The box's MTU request is first in the strap's queue; then the box answers the strap.
        let first = try #require(try SeqPacketPair.readPDU(pair.strap))
        #expect(first == hex("02 B9 00"))
        try strap.perform(strap.server.handle(.received(first)), on: pair.strap)
        for _ in 0..<3 {
            let pdu = try #require(try SeqPacketPair.readPDU(pair.box))
            try box.perform(box.client.handle(.received(pdu, nowMs: 0)), on: pair.box)
        }
        #expect(try SeqPacketPair.readPDU(pair.strap) == hex("03 B9 00"))  // our Rx MTU, answering theirs
        #expect(try SeqPacketPair.readPDU(pair.strap) == hex("01 10 01 00 0A"))  // empty database: not found
        #expect(box.client.attMTU == 185)
        // Discovery then runs to the end as usual.
        try Self.pump(&box, &strap, pair, now: 0)
        #expect(box.log.contains(.subscribed))
        #expect(strap.server.attMTU == 185)
    }

    @Test("Vol 3 Part G §4.4.1, §4.6.1, §4.8.1, §4.12.3: gatttool's requests get the answers it expects")
    func gatttoolScript() throws {
        let pair = try SeqPacketPair()
        defer { pair.close() }
        var (server, _) = GATTServer.heartRateStrap(.polarH10(id: "1A2B3C4D"))
        // The requests `gatttool --primary`, `--characteristics`, `--char-read -a 0x0012` and
        // `--char-write-req -a 0x000d -n 0100` send at the default ATT_MTU of 23, with the strap's answers.
        let script: [(String, String)] = [
            ("10 01 00 FF FF 00 28", "11 06 01 00 05 00 00 18 06 00 09 00 01 18 0A 00 0F 00 0D 18"),
            ("10 10 00 FF FF 00 28", "11 06 10 00 13 00 0F 18 14 00 20 00 0A 18"),
            ("10 21 00 FF FF 00 28", "01 10 21 00 0A"),
            ("08 01 00 FF FF 03 28", "09 07 02 00 02 03 00 00 2A 04 00 02 05 00 01 2A 07 00 20 08 00 05 2A"),
            ("08 08 00 FF FF 03 28", "09 07 0B 00 10 0C 00 37 2A 0E 00 02 0F 00 38 2A 11 00 12 12 00 19 2A"),
            ("0A 12 00", "0B 64"),
            ("12 0D 00 01 00", "13"),
        ]
        for (request, expected) in script {
            try pair.box.write(hex(request))
            let pdu = try #require(try SeqPacketPair.readPDU(pair.strap))
            for action in server.handle(.received(pdu)) {
                if case .send(let bytes) = action { try pair.strap.write(bytes) }
            }
            #expect(try SeqPacketPair.readPDU(pair.box) == hex(expected), "answer to \(request)")
        }
        #expect(server.isNotifying(0x0C))
    }
}

/// A small seeded generator (SplitMix64) so random tests repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Testing

@testable import HeartRateProtocol

/// Seeded mutations (bit flips, byte overwrites, insertions, deletions, truncations) of valid
/// inputs, fed to every decoder and to both state machines. The decoders' typed throws make
/// "a value or a typed error" structural; these tests add what a reader would notice: nothing
/// traps, decoded values survive an encode/decode round trip, and every request a server or
/// client receives gets exactly one answer of the right kind.
@Suite("Seeded mutation of valid inputs")
struct MutationTests {
    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = input
        for _ in 0..<(1 + Int(rng.next() % 3)) {
            let kind = rng.next() % 6
            let at = b.isEmpty ? 0 : Int(rng.next() % UInt64(b.count))
            switch kind {
            case 0 where !b.isEmpty: b[at] ^= UInt8(1 << (rng.next() % 8))
            case 1 where !b.isEmpty: b[at] = UInt8(truncatingIfNeeded: rng.next())
            case 2: b.insert(UInt8(truncatingIfNeeded: rng.next()), at: b.isEmpty ? 0 : at)
            case 3 where !b.isEmpty: b.remove(at: at)
            case 4: b = Array(b.prefix(at))
            default: if !b.isEmpty { b[at] = [0x00, 0xFF, 0x01, 0x7F][Int(rng.next() % 4)] }
            }
        }
        return b
    }

    static let heartRate = ["10 3C 00 04 CD 03", "01 2C 01", "1F 3A 00 10 27 24 04 18 04 4D 04", "16 3A 24 04"]
    static let advertising = [
        "02 01 06 03 02 0D 18 13 09 50 6F 6C 61 72 20 48 31 30 20 31 41 32 42 33 43 34 44 02 0A FC 05 FF 6B 00 01 02",
        "11 07 FB 34 9B 5F 80 00 00 80 00 10 00 00 0D 18 00 00 05 05 0F 18 00 00",
    ]
    static let management = [
        "01 00 FF FF 0B 00 03 00 00 03 00 00 00 01 00 02 00", "13 00 01 00 02 00 06 01",
        "12 00 02 00 11 00 4D 3C 2B 1A 9E C4 02 BD 00 00 00 00 03 00 02 01 06",
        "0C 00 01 00 08 00 01 00 00 1A 9E A0 01 01", "01 00 01 00 07 00 05 00 00 01 02 00 00",
    ]
    static let attRequests = [
        "02 F7 00", "04 0D 00 FF FF", "06 01 00 FF FF 00 28 0D 18", "08 01 00 FF FF 03 28", "0A 12 00",
        "0C 03 00 05 00",
        "10 01 00 FF FF 00 28", "12 0D 00 01 00", "52 0D 00 01 00", "1D 03 00 01 00", "0E 03 00 12 00",
    ]
    static let attResponses = [
        "11 06 01 00 05 00 00 18 06 00 09 00 01 18 0A 00 0F 00 0D 18",
        "09 07 0B 00 10 0C 00 37 2A 0E 00 02 0F 00 38 2A",
        "05 01 0D 00 02 29", "13", "0B 64", "01 10 21 00 0A", "1B 0C 00 10 3C 00 04", "03 17 00",
    ]

    @Test("Decoders: 120 000 mutated HR, advertising, management and ATT inputs decode or are rejected, never trap")
    func decoders() throws {
        var rng = SplitMix64(seed: 0x5EED_0001)
        var accepted = 0
        for i in 0..<30_000 {
            let hr = Self.mutate(hex(Self.heartRate[i % Self.heartRate.count]), &rng)
            if let m = try? HeartRateMeasurement(bytes: hr) {
                accepted += 1
                #expect(try HeartRateMeasurement(bytes: m.encoded()) == m)
            }
            let ad = Self.mutate(hex(Self.advertising[i % Self.advertising.count]), &rng)
            if let a = try? AdvertisingData(bytes: ad) {
                accepted += 1
                #expect(try AdvertisingData(bytes: a.encoded()) == a)
                _ = a.strapMatch
            }
            let mg = Self.mutate(hex(Self.management[i % Self.management.count]), &rng)
            if let p = try? MgmtEventPacket(bytes: mg) {
                accepted += 1
                #expect(try MgmtEventPacket(bytes: p.encoded()) == p)
            }
            let all = Self.attRequests + Self.attResponses
            let att = Self.mutate(hex(all[i % all.count]), &rng)
            if let pdu = try? ATTPDU(bytes: att) {
                accepted += 1
                #expect(try ATTPDU(bytes: pdu.encoded()) == pdu)
            }
        }
        // Mutation must not be so destructive that nothing decodes (the test would prove little).
        #expect(accepted > 20_000)
    }

    /// The PDU that answers `request`, if `pdu` is a response to it or an Error Response for it.
    static func answers(_ pdu: [UInt8], _ request: ATTOpcode) -> Bool {
        guard let decoded = try? ATTPDU(bytes: pdu) else { return false }
        if case .errorResponse(let r, _, _) = decoded { return r == request }
        return decoded.opcode == request.responseOpcode
    }

    @Test("Vol 3 Part F §3.3.2: every mutated request to the strap's server gets exactly one answer for it")
    func server() {
        var rng = SplitMix64(seed: 0x5EED_0002)
        var (server, _) = GATTServer.heartRateStrap(.polarH10(id: "1A2B3C4D"))
        var requests = 0
        for i in 0..<20_000 {
            let pdu = Self.mutate(hex(Self.attRequests[i % Self.attRequests.count]), &rng)
            let sent = server.handle(.received(pdu)).compactMap { if case .send(let b) = $0 { b } else { nil } }
            guard let opcode = pdu.first.map(ATTOpcode.init(rawValue:)) else {
                #expect(sent.isEmpty)
                continue
            }
            if opcode.isRequest {
                requests += 1
                #expect(sent.count == 1 && Self.answers(sent[0], opcode), "request \(pdu) answered with \(sent)")
                #expect(sent.allSatisfy { $0.count <= server.attMTU })
            } else if opcode == .handleValueIndication, (try? ATTPDU(bytes: pdu)) != nil {
                #expect(sent == [[0x1E]])
            } else {
                #expect(sent.isEmpty)
            }
        }
        #expect(requests > 10_000)
    }

    @Test("Vol 3 Part F §3.3.2: mutated traffic to the client never traps; each strap request is answered once")
    func client() {
        var rng = SplitMix64(seed: 0x5EED_0003)
        var client = GATTClient()
        var now: Int64 = 0
        var answeredChecked = 0
        for i in 0..<20_000 {
            if i % 40 == 0 {
                client = GATTClient()
                _ = client.handle(.linkUp(nowMs: now))
            }
            now += 10
            let all = Self.attResponses + Self.attRequests
            let pdu = Self.mutate(hex(all[i % all.count]), &rng)
            let actions = client.handle(.received(pdu, nowMs: now))
            let sent = actions.compactMap { if case .send(let b) = $0 { b } else { nil } }
            if let opcode = pdu.first.map(ATTOpcode.init(rawValue:)), opcode.isRequest, client.phase != .idle,
                !isFailed(client.phase) || !sent.isEmpty
            {
                #expect(sent.count == 1 && Self.answers(sent[0], opcode), "request \(pdu) answered with \(sent)")
                answeredChecked += 1
            }
            #expect(sent.count <= 2)
        }
        // The answer-once check must have run on a fair share of the traffic, or the test proved little.
        #expect(answeredChecked > 1_000, "\(answeredChecked) requests checked (1892 at this seed)")
    }

    private func isFailed(_ phase: GATTClient.Phase) -> Bool {
        if case .failed = phase { true } else { false }
    }
}

import Testing

@testable import HeartRateProtocol

/// The virtual strap's raw HCI packets, hand-assembled from Bluetooth Core 5.3 (packet type octet
/// first, then the HCI packet, little-endian).
@Suite("Peripheral HCI packets (Core 5.3 Vol 4 Part E, Vol 3 Part A §4.20)")
struct PeripheralHCITests {
    @Test("Vol 4 Part E §7.8.18 LE Connection Update: handle, min 250, max 400, latency 0, timeout 600, CE 0")
    func connectionUpdate() {
        #expect(
            PeripheralHCI.leConnectionUpdate(handle: 0x0040, .polarRequest)
                == hex("01 13 20 0E 40 00 FA 00 90 01 00 00 58 02 00 00 00 00"))
    }

    @Test("Vol 4 Part E §7.1.6 Disconnect: handle and reason 0x3B Unacceptable Connection Parameters")
    func disconnect() {
        #expect(PeripheralHCI.disconnect(handle: 0x0040, reason: 0x3B) == hex("01 06 04 03 40 00 3B"))
    }

    @Test("Vol 3 Part A §4.20 Connection Parameter Update Request: ACL, L2CAP on CID 5, code 0x12")
    func l2capRequest() {
        #expect(
            PeripheralHCI.parameterUpdateRequest(handle: 0x0040, identifier: 7, .polarRequest)
                == hex("02 40 00 10 00 0C 00 05 00 12 07 08 00 FA 00 90 01 00 00 58 02"))
    }

    @Test("The answers: Connection Update Complete, the L2CAP response, Command Status, Disconnection Complete")
    func answers() {
        #expect(
            PeripheralHCI.input(hex("04 3E 0A 03 1E 40 00 28 00 00 00 2A 00"))
                == .connectionUpdateComplete(status: 0x1E, handle: 0x40, interval: 40, latency: 0, timeout: 42))
        #expect(
            PeripheralHCI.input(hex("02 40 20 0A 00 06 00 05 00 13 07 02 00 01 00"))
                == .parameterUpdateResponse(handle: 0x40, identifier: 7, accepted: false))
        #expect(
            PeripheralHCI.input(hex("02 40 20 0A 00 06 00 05 00 13 07 02 00 00 00"))
                == .parameterUpdateResponse(handle: 0x40, identifier: 7, accepted: true))
        #expect(PeripheralHCI.input(hex("04 0F 04 0C 01 13 20")) == .commandStatus(status: 0x0C, opcode: 0x2013))
        #expect(PeripheralHCI.input(hex("04 05 04 00 40 00 3B")) == .disconnectionComplete(handle: 0x40, reason: 0x3B))
        // ATT data on CID 4 and other events are not for the request.
        #expect(PeripheralHCI.input(hex("02 40 20 05 00 01 00 04 00 13")) == nil)
        #expect(PeripheralHCI.input(hex("04 0E 04 01 13 20 00")) == nil)
    }

    @Test("Every prefix of every answer is refused or read, never a crash")
    func prefixes() {
        for script in [
            "04 3E 0A 03 1E 40 00 28 00 00 00 2A 00", "02 40 20 0A 00 06 00 05 00 13 07 02 00 01 00",
            "04 0F 04 0C 01 13 20", "04 05 04 00 40 00 3B",
        ] {
            let bytes = hex(script)
            for n in 0..<bytes.count { #expect(PeripheralHCI.input(Array(bytes.prefix(n))) == nil) }
        }
    }
}

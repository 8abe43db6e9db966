import HeartRateProtocol
import Platform
import TestSupport
import Testing

@testable import BlueZ

#if canImport(Glibc)
    import Glibc
#endif

/// The strap's connection parameters: loaded through the management socket before each attempt, the
/// kernel's replies read by the loop (mgmt-api Load Connection Parameters, New Connection Parameter;
/// DESIGN §5). The kernel's end is the other half of a `SOCK_SEQPACKET` pair.
@Suite struct StrapLinkParameterTests {
    final class Kernel {
        let linkEnd: FileDescriptor
        let kernelEnd: FakeStrap

        init() {
            let pair = try! SeqPacketPair()
            linkEnd = pair.box
            kernelEnd = FakeStrap(fd: pair.strap)
        }

        deinit { kernelEnd.fd.close() }

        /// Every command the link wrote, in order.
        func commands() -> [[UInt8]] {
            var out: [[UInt8]] = []
            while let bytes = kernelEnd.received() { out.append(bytes) }
            return out
        }

        func send(_ packet: MgmtEventPacket) { kernelEnd.send(packet.encoded()) }
    }

    /// hci1; A0:9E:1A:12:34:56 random; min 24, max 400, latency 0, timeout 600.
    static let loadScript = hex("35 00 01 00 11 00 01 00 56 34 12 1A 9E A0 02 18 00 90 01 00 00 58 02")

    @Test("mgmt-api Load Connection Parameters: sent for the strap before each connect, confirmed by the loop")
    func loadedBeforeEveryAttempt() throws {
        let kernel = Kernel()
        let h = try StrapLinkTests.Harness(management: ManagementSocket(descriptor: kernel.linkEnd)) {
            $0.controller = 1
        }
        var sentBeforeDialling: [[[UInt8]]] = []
        h.transport.onConnect = { sentBeforeDialling.append(kernel.commands()) }
        h.start()
        #expect(sentBeforeDialling == [[Self.loadScript]], "the parameters are in place before the connect")
        #expect(h.link.parameterState == .sent(.strap))
        kernel.send(
            MgmtEventPacket(
                index: 1, event: .commandComplete(.loadConnectionParameters, status: .success, reply: .none)))
        h.readable()
        #expect(h.link.parameterState == .loaded(.strap))
        h.serve()
        #expect(h.link.state == .live)

        // The strap's request, accepted: another device's and another controller's are not the strap's.
        let other = DeviceConnectionParameters(
            address: BluetoothAddress("11:22:33:44:55:66")!, addressType: .lePublic, parameters: .polarRequest)
        kernel.send(MgmtEventPacket(index: 1, event: .newConnectionParameter(other, storeHint: false)))
        var strap = other
        strap.address = StrapLinkTests.strapAddress
        kernel.send(MgmtEventPacket(index: 0, event: .newConnectionParameter(strap, storeHint: false)))
        h.readable()
        #expect(h.link.statistics.parameterUpdates == 0)
        kernel.send(MgmtEventPacket(index: 1, event: .newConnectionParameter(strap, storeHint: true)))
        h.readable()
        #expect(h.link.statistics.parameterUpdates == 1)
        #expect(h.link.parameterState == .updatedByStrap(.polarRequest))

        // A reconnection loads them again (another program may have replaced the kernel's list).
        h.transport.hangUp()
        h.nowMs = 5_000
        h.readable()
        h.advance(to: 5_250)
        #expect(sentBeforeDialling.count == 2 && sentBeforeDialling[1] == [Self.loadScript])
    }

    @Test("mgmt-api Command Status: a refusal is kept with its sentence and the link still connects")
    func refusalIsReported() throws {
        let kernel = Kernel()
        let h = try StrapLinkTests.Harness(management: ManagementSocket(descriptor: kernel.linkEnd)) {
            $0.controller = 1
        }
        h.start()
        kernel.send(
            MgmtEventPacket(index: 1, event: .commandStatus(.loadConnectionParameters, status: .permissionDenied)))
        h.readable()
        #expect(h.link.parameterState == .refused(.missingCapability(command: "Load Connection Parameters")))
        h.serve()
        #expect(h.link.state == .live)
    }

    @Test("Loading switched off: no management socket is used and nothing is sent")
    func switchedOff() throws {
        let kernel = Kernel()
        let h = try StrapLinkTests.Harness(management: ManagementSocket(descriptor: kernel.linkEnd)) {
            $0.controller = 1
            $0.connectionParameters = nil
        }
        h.start()
        h.serve()
        #expect(h.link.state == .live)
        #expect(kernel.commands().isEmpty)
        #expect(h.link.parameterState == .notLoaded)
    }
}

/// "35 00 01" → [0x35, 0x00, 0x01].
private func hex(_ text: String) -> [UInt8] { text.split(separator: " ").map { UInt8($0, radix: 16)! } }

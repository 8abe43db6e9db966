import ControlProtocol
import HeartRateProtocol
import Platform
import Store
import TestSupport
import Testing

@testable import Appliance
@testable import BlueZ

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's discovery for clients without CAP_NET_ADMIN (BlueZ mgmt-api.txt "Start Discovery", "Device
/// Found"), the kernel's side played over a SEQPACKET socket pair: every client is answered when its own
/// time is up, with the straps seen by then; a failure or a morning ends it for everyone with one sentence.
@Suite struct StrapDiscoveryTests {
    final class Kernel {
        var end: FileDescriptor?
        var opened = 0

        func open() throws(BlueZError) -> ManagementSocket {
            let pair = try! SeqPacketPair()
            end?.close()
            end = pair.strap
            opened += 1
            return ManagementSocket(descriptor: pair.box)
        }

        static let info = ControllerInfo(
            address: BluetoothAddress("00:AA:01:02:00:02")!, bluetoothVersion: 9, manufacturer: 1521,
            supportedSettings: [.powered, .lowEnergy], currentSettings: [.powered, .lowEnergy], classOfDevice: 0,
            name: "", shortName: "")

        /// Answers the controller queries (one powered LE controller, hci0), as the packets the loop reads.
        func answersControllers(index: ControllerIndex = 0) {
            let list = MgmtEventPacket(
                index: .none,
                event: .commandComplete(.readControllerIndexList, status: .success, reply: .controllerIndexList([index])))
            let info = MgmtEventPacket(
                index: index, event: .commandComplete(.readControllerInfo, status: .success, reply: .controllerInfo(Self.info)))
            for packet in [list, info] {
                let bytes = packet.encoded()
                _ = bytes.withUnsafeBytes { send(end!.rawValue, $0.baseAddress, $0.count, 0) }
            }
        }

        func sends(_ event: MgmtEvent, index: ControllerIndex = 0) {
            let bytes = MgmtEventPacket(index: index, event: event).encoded()
            _ = bytes.withUnsafeBytes { send(end!.rawValue, $0.baseAddress, $0.count, 0) }
        }

        /// The commands the daemon sent since last asked.
        func commands() -> [MgmtCommandPacket] {
            var out: [MgmtCommandPacket] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while let end {
                let n = buffer.withUnsafeMutableBytes { recv(end.rawValue, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
                guard n > 0, let packet = try? MgmtCommandPacket(bytes: Array(buffer[..<n])) else { break }
                // The controller choice's queries are ControllerWatch's (its own tests); these tests follow discovery.
                if case .readControllerIndexList = packet.command { continue }
                if case .readControllerInfo = packet.command { continue }
                out.append(packet)
            }
            return out
        }

        deinit { end?.close() }
    }

    static let h10 = BluetoothAddress("A0:9E:1A:12:34:56")!

    @Test("two clients share one discovery; each is answered at its own end with the strap, as JSON it reads back")
    func eachClientIsAnsweredAtItsOwnEnd() throws {
        let kernel = Kernel()
        let discovery = try StrapDiscovery(rfkillRoot: "/nonexistent", open: kernel.open)
        let first = FileDescriptor(rawValue: 900)
        let second = FileDescriptor(rawValue: 901)
        #expect(discovery.begin(client: first, seconds: 5, adapter: nil, nowMs: 0) == nil)
        #expect(kernel.commands().isEmpty, "nothing but the controller queries before the kernel answers")
        kernel.answersControllers()
        #expect(discovery.onReadable(nowMs: 0).isEmpty)
        #expect(kernel.commands() == [MgmtCommandPacket(index: 0, command: .startDiscovery(.le))])
        #expect(discovery.begin(client: second, seconds: 8, adapter: nil, nowMs: 1000) == nil)
        #expect(kernel.opened == 1, "the second client joins the discovery that runs")
        kernel.sends(.commandComplete(.startDiscovery, status: .success, reply: .discovery(.le)))
        kernel.sends(
            .deviceFound(
                DeviceFound(
                    address: Self.h10, addressType: .lePublic, rssi: -60, flags: [],
                    eir: AdvertisingData.strap(name: "Polar H10 12345678").encoded())))
        #expect(discovery.onReadable(nowMs: 2000).isEmpty, "nobody's time is up yet")
        #expect(discovery.nextDeadlineMs == 5000)

        let atFive = discovery.onDeadline(nowMs: 5000)
        #expect(atFive.map(\.client) == [first])
        let straps = try ScanFound.decode(try #require(atFive.first?.reply)).straps
        let strap = try #require(straps.first)
        #expect(strap.address == Self.h10 && strap.addressType == .lePublic)
        #expect(strap.name == "Polar H10 12345678" && strap.rssi == -60 && strap.match == .polarH10Name)
        #expect(discovery.isRunning)

        #expect(discovery.nextDeadlineMs == 9000, "the second asked at 1 s for 8 s")
        #expect(discovery.onDeadline(nowMs: 8999).isEmpty)
        #expect(discovery.onDeadline(nowMs: 9000).map(\.client) == [second])
        #expect(!discovery.isRunning, "the discovery ends with its last client")
        #expect(discovery.descriptor == nil)
        #expect(kernel.commands() == [MgmtCommandPacket(index: 0, command: .stopDiscovery(.le))])
    }

    @Test("mgmt-api Permission Denied ends the discovery for every client with the capability sentence")
    func aKernelRefusalAnswersEveryone() throws {
        let kernel = Kernel()
        let discovery = try StrapDiscovery(rfkillRoot: "/nonexistent", open: kernel.open)
        #expect(discovery.begin(client: FileDescriptor(rawValue: 900), seconds: 5, adapter: nil, nowMs: 0) == nil)
        kernel.answersControllers()
        #expect(discovery.onReadable(nowMs: 0).isEmpty)
        kernel.sends(.commandStatus(.startDiscovery, status: .permissionDenied))
        let answers = discovery.onReadable(nowMs: 10)
        #expect(answers.count == 1)
        #expect(answers.first?.reply["ok"]?.boolValue == false)
        #expect(answers.first?.reply["message"]?.stringValue?.contains("needs the CAP_NET_ADMIN capability") == true)
        #expect(!discovery.isRunning)
    }

    @Test("a client that leaves is not answered, and the discovery stops when nobody waits")
    func aClientThatLeavesEndsTheDiscovery() throws {
        let kernel = Kernel()
        let discovery = try StrapDiscovery(rfkillRoot: "/nonexistent", open: kernel.open)
        let client = FileDescriptor(rawValue: 900)
        #expect(discovery.begin(client: client, seconds: 5, adapter: nil, nowMs: 0) == nil)
        discovery.forget(client)
        #expect(!discovery.isRunning)
        #expect(discovery.onDeadline(nowMs: 6000).isEmpty)
    }

    @Test("a channel the daemon cannot watch is refused at once with a sentence, and nothing is left running")
    func anUnwatchableChannelIsRefused() throws {
        let discovery = try StrapDiscovery(rfkillRoot: "/nonexistent") { () throws(BlueZError) in
            // epoll(7) refuses a regular file (EPERM), as it refuses a descriptor beyond the user's watch limit.
            let file = Glibc.open("/proc/self/stat", O_RDONLY)
            precondition(file >= 0, "open failed")
            return ManagementSocket(descriptor: FileDescriptor(rawValue: file))
        }
        let refusal = discovery.begin(client: FileDescriptor(rawValue: 900), seconds: 5, adapter: nil, nowMs: 0)
        #expect(refusal?.code == .bluetooth)
        #expect(
            refusal?.message.contains("cannot watch its Bluetooth management channel") == true,
            "\(String(describing: refusal))")
        #expect(!discovery.isRunning)
        #expect(discovery.readiness.members.isEmpty)
    }

    @Test("no management channel: the request is refused at once with its sentence, nothing kept open")
    func noChannelIsRefusedAtOnce() throws {
        let discovery = try StrapDiscovery { () throws(BlueZError) in throw .noAdapter }
        let refusal = discovery.begin(client: FileDescriptor(rawValue: 900), seconds: 5, adapter: nil, nowMs: 0)
        #expect(refusal?.message == BlueZError.noAdapter.description)
        #expect(!discovery.isRunning)
    }

    @Test("no controller in the kernel's answer: every client is answered with the adapter's sentence, nothing kept")
    func noControllerIsAnswered() throws {
        let kernel = Kernel()
        let discovery = try StrapDiscovery(rfkillRoot: "/nonexistent", open: kernel.open)
        #expect(discovery.begin(client: FileDescriptor(rawValue: 900), seconds: 5, adapter: nil, nowMs: 0) == nil)
        kernel.sends(
            .commandComplete(.readControllerIndexList, status: .success, reply: .controllerIndexList([])), index: .none)
        let answers = discovery.onReadable(nowMs: 10)
        #expect(answers.first?.reply["message"]?.stringValue == BlueZError.noAdapter.description)
        #expect(!discovery.isRunning)
        #expect(discovery.readiness.members.isEmpty)
    }

    @Test("a kernel that never answers does not hold the caller: begin returns, the choice's limit answers everyone")
    func aSilentKernelIsAnsweredAtItsLimit() throws {
        let kernel = Kernel()
        let discovery = try StrapDiscovery(rfkillRoot: "/nonexistent", open: kernel.open)
        #expect(discovery.begin(client: FileDescriptor(rawValue: 900), seconds: 5, adapter: nil, nowMs: 0) == nil)
        #expect(discovery.nextDeadlineMs == ControllerWatch.defaultTimeoutMs)
        #expect(discovery.onDeadline(nowMs: ControllerWatch.defaultTimeoutMs - 1).isEmpty)
        let answers = discovery.onDeadline(nowMs: ControllerWatch.defaultTimeoutMs)
        #expect(answers.first?.reply["ok"]?.boolValue == false)
        #expect(!discovery.isRunning)
    }

    @Test("a scan request outside 1...120 s or with an overlong adapter is refused; the bounds are taken")
    func scanRequestBounds() throws {
        func parse(_ text: String) -> Result<ControlRequest, ControlRefusal> { ControlRequest.parse(Array(text.utf8)) }
        #expect(try parse(#"{"request":"scan","seconds":1}"#).get() == .scan(seconds: 1, adapter: nil))
        #expect(try parse(#"{"request":"scan","seconds":120,"adapter":"hci1"}"#).get() == .scan(seconds: 120, adapter: "hci1"))
        for bad in [
            #"{"request":"scan","seconds":0}"#, #"{"request":"scan","seconds":121}"#, #"{"request":"scan"}"#,
            #"{"request":"scan","seconds":5,"adapter":"\#(String(repeating: "h", count: 40))"}"#,
        ] {
            guard case .failure(let refusal) = parse(bad) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(refusal.code == .badRequest)
        }
        let request = ControlRequest.scan(seconds: 7, adapter: "hci0")
        #expect(try parse(request.json.serialized()).get() == request)
    }
}

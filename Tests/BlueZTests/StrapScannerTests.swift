import HeartRateProtocol
import Platform
import TestSupport
import Testing

@testable import BlueZ

#if canImport(Glibc)
    import Glibc
#endif

/// LE discovery through the management channel (BlueZ mgmt-api.txt "Start Discovery", "Device
/// Found", "Discovering"), the kernel's side played over a SEQPACKET socket pair.
@Suite struct StrapScannerTests {
    final class Harness {
        let scanner: StrapScanner
        let kernel: FileDescriptor
        var nowMs: Int64 = 0
        var events: [StrapScanner.Event] = []

        init() {
            let pair = try! SeqPacketPair()
            kernel = pair.strap
            let info = ControllerInfo(
                address: BluetoothAddress("00:AA:01:02:00:02")!, bluetoothVersion: 9, manufacturer: 1521,
                supportedSettings: [.powered, .lowEnergy], currentSettings: [.powered, .lowEnergy], classOfDevice: 0,
                name: "", shortName: "")
            scanner = StrapScanner(
                controller: Controller(index: 2, info: info),
                socket: ManagementSocket(descriptor: pair.box))
        }

        deinit { kernel.close() }

        /// The commands the scanner sent since last asked.
        func commands() -> [MgmtCommandPacket] {
            var out: [MgmtCommandPacket] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let n = buffer.withUnsafeMutableBytes {
                    recv(kernel.rawValue, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT))
                }
                guard n > 0, let packet = try? MgmtCommandPacket(bytes: Array(buffer[..<n])) else { return out }
                out.append(packet)
            }
        }

        func kernelSends(_ event: MgmtEvent, index: ControllerIndex = 2) {
            let bytes = MgmtEventPacket(index: index, event: event).encoded()
            _ = bytes.withUnsafeBytes { send(kernel.rawValue, $0.baseAddress, $0.count, 0) }
            events += scanner.onReadable(nowMs: nowMs)
        }

        func found(_ address: String, _ type: BluetoothAddressType, rssi: Int8, _ data: AdvertisingData) {
            kernelSends(
                .deviceFound(
                    DeviceFound(
                        address: BluetoothAddress(address)!, addressType: type, rssi: rssi, flags: [],
                        eir: data.encoded())))
        }
    }

    @Test("mgmt-api Start Discovery, Device Found: a strap is reported with its own address type and RSSI")
    func startsLEDiscoveryAndReportsAStrapWithItsOwnAddressTypeAndSignal() {
        let h = Harness()
        h.events += h.scanner.start(nowMs: 0)
        #expect(h.commands() == [MgmtCommandPacket(index: 2, command: .startDiscovery(.le))])
        h.kernelSends(.commandComplete(.startDiscovery, status: .success, reply: .discovery(.le)))
        h.found("C4:11:22:33:44:55", .leRandom, rssi: -58, .strap(name: "Polar H10 1A2B3C4D"))
        h.found(
            "A0:9E:1A:00:00:01", .lePublic, rssi: -71,
            AdvertisingData(fields: [.localName("Kitchen scale", complete: true)]))
        #expect(h.events.count == 1)
        guard case .found(let strap) = h.events.first else {
            Issue.record("no strap reported")
            return
        }
        #expect(strap.name == "Polar H10 1A2B3C4D")
        #expect(strap.address == BluetoothAddress("C4:11:22:33:44:55")!)
        #expect(strap.addressType == .leRandom, "older H10 firmware: random static address, from the report")
        #expect(strap.rssi == -58)
        #expect(strap.match == .polarH10Name)
    }

    @Test("Core 5.3 Vol 3 Part C §11: a name only in the scan response joins the advertisement")
    func aNameThatComesOnlyInTheScanResponseIsJoinedToTheAdvertisement() {
        let h = Harness()
        h.events += h.scanner.start(nowMs: 0)
        // Advertisement: Heart Rate service only (a match already); scan response: the name.
        h.found(
            "A0:9E:1A:12:34:56", .lePublic, rssi: -60,
            AdvertisingData(fields: [.serviceUUIDs16([0x180D], complete: true)]))
        h.found(
            "A0:9E:1A:12:34:56", .lePublic, rssi: -61,
            AdvertisingData(fields: [.localName("Polar H10 0A0B0C0D", complete: true)]))
        let names = h.events.compactMap { if case .found(let c) = $0 { c.name } else { nil } }
        #expect(names == ["Polar H10 0A0B0C0D"], "reported again once the name is known")
        #expect(h.scanner.candidates[BluetoothAddress("A0:9E:1A:12:34:56")!]?.match == .polarH10Name)
    }

    @Test("mgmt-api Discovering: the kernel ending its discovery starts another while scanning")
    func theKernelEndingItsDiscoveryStartsAnotherWhileScanning() {
        let h = Harness()
        h.events += h.scanner.start(nowMs: 0)
        h.kernelSends(.commandComplete(.startDiscovery, status: .success, reply: .discovery(.le)))
        _ = h.commands()
        h.kernelSends(.discovering(.le, active: false))
        #expect(h.commands() == [MgmtCommandPacket(index: 2, command: .startDiscovery(.le))])
        h.scanner.stop()
        #expect(h.commands() == [MgmtCommandPacket(index: 2, command: .stopDiscovery(.le))])
        // The start was still under way: once it completes, it is stopped again, and not restarted.
        h.kernelSends(.commandComplete(.startDiscovery, status: .success, reply: .discovery(.le)))
        h.kernelSends(.discovering(.le, active: false))
        #expect(h.commands() == [MgmtCommandPacket(index: 2, command: .stopDiscovery(.le))], "stopped: no restart")
    }

    @Test("mgmt-api Start Discovery Busy: another program discovering means listen and retry later")
    func busyBecauseAnotherProgramDiscoversMeansListenAndRetryLater() {
        let h = Harness()
        h.events += h.scanner.start(nowMs: 0)
        _ = h.commands()
        h.kernelSends(.commandComplete(.startDiscovery, status: .busy, reply: .none))
        #expect(h.events.isEmpty, "not a failure: bluetoothd's reports reach every management socket")
        #expect(h.scanner.nextDeadlineMs == 2_000)
        h.found("C4:11:22:33:44:55", .leRandom, rssi: -50, .strap(name: "Polar H10 1A2B3C4D"))
        #expect(h.events.count == 1)
        h.events += h.scanner.onDeadline(nowMs: 2_000)
        #expect(h.commands() == [MgmtCommandPacket(index: 2, command: .startDiscovery(.le))])
    }

    @Test("mgmt-api Permission Denied: discovery without CAP_NET_ADMIN is the capability sentence")
    func permissionDeniedIsTheCapabilitySentence() {
        let h = Harness()
        h.events += h.scanner.start(nowMs: 0)
        h.kernelSends(.commandStatus(.startDiscovery, status: .permissionDenied))
        guard case .failed(let error) = h.events.first else {
            Issue.record("no failure")
            return
        }
        #expect(error.description.contains("run as root or give the binary cap_net_admin"))
        #expect(h.scanner.nextDeadlineMs == nil)
    }

    @Test("mgmt-api Device Found: another controller's reports are ignored")
    func anotherControllersReportsAreIgnored() {
        let h = Harness()
        h.events += h.scanner.start(nowMs: 0)
        h.kernelSends(
            .deviceFound(
                DeviceFound(
                    address: BluetoothAddress("C4:11:22:33:44:55")!, addressType: .leRandom, rssi: -50, flags: [],
                    eir: AdvertisingData.strap(name: "Polar H10 1A2B3C4D").encoded())), index: 1)
        #expect(h.events.isEmpty)
    }
}

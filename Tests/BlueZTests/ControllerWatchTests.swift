import HeartRateProtocol
import Platform
import TestSupport
import Testing

@testable import BlueZ

#if canImport(Glibc)
    import Glibc
#endif

/// Finding the controller as packets the loop reads (mgmt-api.txt Read Controller Index List and Read
/// Controller Information), against a socket pair standing in for the kernel.
@Suite struct ControllerWatchTests {
    final class Kernel {
        let end: FileDescriptor
        let watch: ControllerWatch

        init(name: String? = nil, powersOn: Bool = false) {
            let pair = try! SeqPacketPair()
            end = pair.strap
            watch = ControllerWatch(
                socket: ManagementSocket(descriptor: pair.box), name: name,
                rfkillRoot: "/nonexistent-rfkill", powersOn: powersOn)
        }

        deinit { end.close() }

        func sends(_ event: MgmtEvent, index: ControllerIndex) -> ControllerWatch.State? {
            let bytes = MgmtEventPacket(index: index, event: event).encoded()
            _ = bytes.withUnsafeBytes { send(end.rawValue, $0.baseAddress, $0.count, 0) }
            return watch.onReadable(nowMs: 100)
        }

        /// The commands the watch sent since last asked.
        func commands() -> [MgmtCommandPacket] {
            var out: [MgmtCommandPacket] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(end.rawValue, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
                guard n > 0, let packet = try? MgmtCommandPacket(bytes: Array(buffer[..<n])) else { return out }
                out.append(packet)
            }
        }

        static func info(_ address: String, powered: Bool, lowEnergy: Bool? = nil) -> ControllerInfo {
            var current: ControllerSettings = []
            if powered { current.insert(.powered) }
            if lowEnergy ?? powered { current.insert(.lowEnergy) }
            return ControllerInfo(
                address: BluetoothAddress(address)!, bluetoothVersion: 9, manufacturer: 1521,
                supportedSettings: [.powered, .lowEnergy], currentSettings: current,
                classOfDevice: 0, name: "", shortName: "")
        }
    }

    @Test func choosesThePoweredControllerFromTheKernelsAnswers() {
        let k = Kernel()
        k.watch.resolve(nowMs: 0)
        #expect(
            k.sends(
                .commandComplete(.readControllerIndexList, status: .success, reply: .controllerIndexList([0, 1])),
                index: .none) == nil)
        #expect(
            k.sends(
                .commandComplete(
                    .readControllerInfo, status: .success,
                    reply: .controllerInfo(Kernel.info("00:AA:00:00:00:01", powered: false))), index: 0) == nil)
        guard
            case .chosen(let controller)? = k.sends(
                .commandComplete(
                    .readControllerInfo, status: .success,
                    reply: .controllerInfo(Kernel.info("00:AA:00:00:00:02", powered: true))),
                index: 1)
        else {
            Issue.record("no controller chosen")
            return
        }
        #expect(controller.name == "hci1")
        #expect(controller.address == BluetoothAddress("00:AA:00:00:00:02"))

        // A controller removed: the watch asks again, and waits for the answer.
        _ = k.sends(.indexRemoved, index: 1)
        guard case .resolving = k.watch.state else {
            Issue.record("not asking again after Index Removed")
            return
        }
        #expect(k.watch.nextDeadlineMs == 100 + ControllerWatch.defaultTimeoutMs)
    }

    @Test func aKernelThatNeverAnswersEndsInTheAdaptersSentence() {
        let k = Kernel()
        k.watch.resolve(nowMs: 0)
        #expect(k.watch.onReadable(nowMs: 10) == nil)
        #expect(k.watch.onDeadline(nowMs: ControllerWatch.defaultTimeoutMs - 1) == nil)
        guard case .failed(let error)? = k.watch.onDeadline(nowMs: ControllerWatch.defaultTimeoutMs) else {
            Issue.record("no failure at the deadline")
            return
        }
        #expect(error == .managementTimeout(command: MgmtOpcode.readControllerIndexList.description))
        #expect(k.watch.nextDeadlineMs == nil)
    }

    /// The kernel's answers to one full choice: the index list, then each controller's information.
    static func answer(_ k: Kernel, _ infos: [ControllerInfo]) -> ControllerWatch.State? {
        var state = k.sends(
            .commandComplete(
                .readControllerIndexList, status: .success,
                reply: .controllerIndexList(infos.indices.map { ControllerIndex($0) })), index: .none)
        for (i, info) in infos.enumerated() {
            state = k.sends(
                .commandComplete(.readControllerInfo, status: .success, reply: .controllerInfo(info)),
                index: ControllerIndex(i))
        }
        return state
    }

    @Test("mgmt-api Set Powered: a controller left off (no bluetoothd) is powered on with LE, once, and chosen")
    func powersOnAControllerLeftOff() {
        let k = Kernel(powersOn: true)
        k.watch.resolve(nowMs: 0)
        _ = k.commands()
        #expect(Self.answer(k, [Kernel.info("00:AA:00:00:00:01", powered: false, lowEnergy: false)]) == nil)
        guard case .resolving = k.watch.state else {
            Issue.record("gave up instead of powering the controller on")
            return
        }
        #expect(
            k.commands().suffix(2) == [
                MgmtCommandPacket(index: 0, command: .setLowEnergy(true)),
                MgmtCommandPacket(index: 0, command: .setPowered(true)),
            ])
        #expect(k.watch.takePoweredOn() == ["hci0"])
        // LE on comes first: not yet whole, so the watch does not choose again.
        _ = k.sends(.newSettings([.lowEnergy]), index: 0)
        #expect(k.commands().isEmpty)
        _ = k.sends(.commandComplete(.setLowEnergy, status: .success, reply: .settings([.lowEnergy])), index: 0)
        _ = k.sends(.newSettings([.powered, .lowEnergy]), index: 0)
        #expect(k.commands() == [MgmtCommandPacket(index: .none, command: .readControllerIndexList)])
        guard case .chosen(let controller)? = Self.answer(k, [Kernel.info("00:AA:00:00:00:01", powered: true)]) else {
            Issue.record("the powered controller was not chosen")
            return
        }
        #expect(controller.name == "hci0")

        // Powered off again by someone on the box: the watch does not fight them.
        _ = k.sends(.newSettings([.lowEnergy]), index: 0)
        guard case .failed(let error)? = Self.answer(k, [Kernel.info("00:AA:00:00:00:01", powered: false)]) else {
            Issue.record("powered on a second time")
            return
        }
        #expect(error == .adapterPoweredOff(name: "hci0"))
        #expect(k.commands().allSatisfy { $0.command != .setPowered(true) })
    }

    @Test("mgmt-api Set Powered refused (no CAP_NET_ADMIN): the watch ends with the capability sentence")
    func aRefusedPowerOnIsSaid() {
        let k = Kernel(powersOn: true)
        k.watch.resolve(nowMs: 0)
        #expect(Self.answer(k, [Kernel.info("00:AA:00:00:00:01", powered: false, lowEnergy: true)]) == nil)
        guard case .failed(let error)? = k.sends(.commandStatus(.setPowered, status: .permissionDenied), index: 0)
        else {
            Issue.record("no failure after the refusal")
            return
        }
        #expect(error == .missingCapability(command: MgmtOpcode.setPowered.description))
    }

    @Test("without powersOn (the CLI) an off controller is the powered-off sentence, and nothing is sent")
    func theCLIDoesNotPowerOn() {
        let k = Kernel()
        k.watch.resolve(nowMs: 0)
        _ = k.commands()
        guard case .failed(let error)? = Self.answer(k, [Kernel.info("00:AA:00:00:00:01", powered: false)]) else {
            Issue.record("no failure")
            return
        }
        #expect(error == .adapterPoweredOff(name: "hci0"))
        #expect(k.commands() == [MgmtCommandPacket(index: 0, command: .readControllerInfo)], "nothing but the reads")
    }
}

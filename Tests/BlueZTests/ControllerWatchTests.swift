import HeartRateProtocol
import Platform
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

        init(name: String? = nil) {
            var pair: [CInt] = [-1, -1]
            precondition(
                socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_NONBLOCK.rawValue), 0, &pair) == 0)
            end = FileDescriptor(rawValue: pair[1])
            watch = ControllerWatch(
                socket: ManagementSocket(descriptor: FileDescriptor(rawValue: pair[0])), name: name,
                rfkillRoot: "/nonexistent-rfkill")
        }

        deinit { end.close() }

        func sends(_ event: MgmtEvent, index: ControllerIndex) -> ControllerWatch.State? {
            let bytes = MgmtEventPacket(index: index, event: event).encoded()
            _ = bytes.withUnsafeBytes { send(end.rawValue, $0.baseAddress, $0.count, 0) }
            return watch.onReadable(nowMs: 100)
        }

        static func info(_ address: String, powered: Bool) -> ControllerInfo {
            ControllerInfo(
                address: BluetoothAddress(address)!, bluetoothVersion: 9, manufacturer: 1521,
                supportedSettings: [.powered, .lowEnergy], currentSettings: powered ? [.powered, .lowEnergy] : [],
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
}

import ControlProtocol
import Foundation
import Platform
import Store
import TestSupport
import Testing

@testable import Appliance
@testable import BlueZ
@testable import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// The loop around the strap: connecting never stops it from answering, and a link replaced by a re-pair
/// leaves no descriptor number behind (DESIGN §4: one thread, one epoll loop that never blocks for long).
@Suite struct DaemonStrapLoopTests {
    /// A management socket whose kernel end never answers: finding the controller must not hold the
    /// loop, and the session ends with the adapter's sentence once the answer is overdue.
    @Test func aSilentManagementSocketDoesNotHoldTheLoop() throws {
        var kernelEnd: FileDescriptor?
        let harness = try DaemonHarness(
            edit: {
                $0.strap = .bluetooth
                $0.strapAddress = "A0:9E:1A:00:00:01"
                $0.strapAddressType = "public"
            },
            options: {
                $0.openManagement = { () throws(BlueZError) in
                    let pair = try! SeqPacketPair()
                    kernelEnd = pair.strap
                    return ManagementSocket(descriptor: pair.box)
                }
            })
        defer { kernelEnd?.close() }
        #expect(kernelEnd != nil)
        // Today's questionnaire first: a morning starts only after it.
        harness.keyQuestionnaire()

        // The measure request is answered while the controller is still being asked for, and so is the
        // next one: the session waits on the strap, it has not failed.
        let measured = try harness.request(.measure(overwrite: false))
        #expect(measured["phase"]?.stringValue == "connecting")
        let status = try harness.request(.status)
        #expect(status["snapshot"]?["phase"]?.stringValue == "connecting")

        // The timers kept running: the unanswered exchange times out and the session ends with the fault.
        #expect(harness.run(limit: 10_000) { harness.daemon.routine.session.fault != nil })
        #expect(harness.journal.lines.contains { $0.contains("did not answer Read Controller Index List") })
    }

    /// A re-pair replaces the strap's link; the old link's descriptor number is free again, and a control
    /// client that gets it must be watched and answered.
    @Test func aControlClientOnTheOldStrapNumberIsAnswered() throws {
        let strap = ReplacingStrap()
        let harness = try DaemonHarness(options: { $0.strap = strap })
        let old = try #require(strap.descriptors.first)
        #expect(harness.daemon.watched.contains(old))
        harness.keyQuestionnaire()

        // The client connects now (its own socket cannot take the old number, which is still open); the
        // daemon accepts it only after the re-pair.
        let client = try ControlClient(path: harness.configuration.controlSocket)
        // Every number below the old one taken, so the daemon's accept gets exactly the old one.
        var placeholders: [CInt] = []
        defer { for fd in placeholders { close(fd) } }
        while true {
            let fd = open("/dev/null", O_RDONLY)
            guard fd >= 0, fd < old.rawValue else {
                if fd >= 0 { close(fd) }
                break
            }
            placeholders.append(fd)
        }

        // The re-pair: the session connects, the strap makes a new link and closes the old one.
        harness.daemon.process(.session(.measure(overwrite: false)), now: harness.daemon.clock.monotonicMs())
        #expect(strap.generation == 2)
        #expect(!strap.descriptors.contains(old))
        #expect(!harness.daemon.watched.contains(old))

        let reply = try harness.request(.status, client: client)
        #expect(reply["ok"] == .bool(true))
        #expect(strap.closedNumbers.contains(old.rawValue))
    }
}

/// A strap whose every connect replaces its link, as a re-pair to another strap does: a new descriptor
/// (a pipe's read end) is opened before the old one is closed, as `BluetoothStrap` does.
final class ReplacingStrap: StrapSource {
    private var pipeEnds: (read: FileDescriptor, write: FileDescriptor)
    private(set) var generation = 1
    private(set) var closedNumbers: [CInt] = []

    init() { pipeEnds = ReplacingStrap.makePipe() }

    deinit { closeLink() }

    private static func makePipe() -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [CInt] = [-1, -1]
        precondition(pipe(&fds) == 0, "pipe failed")
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    private func closeLink() {
        closedNumbers.append(pipeEnds.read.rawValue)
        pipeEnds.read.close()
        pipeEnds.write.close()
    }

    var descriptors: [FileDescriptor] { [pipeEnds.read] }
    func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [StrapEvent] { [] }
    var nextDeadlineMs: Int64? { nil }
    func onDeadline(nowMs: Int64) -> [StrapEvent] { [] }
    func connect(nowMs: Int64) -> [StrapEvent] {
        let fresh = ReplacingStrap.makePipe()
        closeLink()
        pipeEnds = fresh
        generation += 1
        return []
    }
    func disconnect() -> [StrapEvent] { [] }
    func personStands(atMs: Int64) {}
    var statusLine: String { "replacing strap" }
    func close() {}
}

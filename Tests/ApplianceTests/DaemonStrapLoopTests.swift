import ControlProtocol
import Foundation
import Platform
@testable import Store
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

    /// A member's `scan` while the kernel does not answer: the controller is chosen through packets the loop
    /// reads, so another client's request is answered while the scan still waits (before, the loop sat in a
    /// blocking management request for up to 5 s and answered nobody).
    @Test func aScanDoesNotHoldTheLoop() throws {
        var kernelEnds: [FileDescriptor] = []
        let harness = try DaemonHarness(
            edit: { $0.strap = .bluetooth },
            options: {
                $0.openManagement = { () throws(BlueZError) in
                    let pair = try! SeqPacketPair()
                    kernelEnds.append(pair.strap)
                    return ManagementSocket(descriptor: pair.box)
                }
            })
        defer { for end in kernelEnds { end.close() } }
        let scanner = try ControlClient(path: harness.configuration.controlSocket)
        try scanner.connection.send(Array(ControlRequest.scan(seconds: 5, adapter: nil).json.serialized().utf8))
        let status = try harness.request(.status)
        #expect(status["ok"]?.boolValue == true)
        let scanReply = try scanner.next(timeoutMs: 0)
        #expect(scanReply == nil, "the scan was answered before the status: \(scanReply?.serialized() ?? "")")
        #expect(harness.daemon.discovery?.isRunning == true)
    }

    /// A re-pair replaces the strap's link; the old link's descriptor number is free again, and a control
    /// client that gets it must be watched and answered.
    @Test func aControlClientOnTheOldStrapNumberIsAnswered() throws {
        let strap = try ReplacingStrap()
        let harness = try DaemonHarness(options: { $0.strap = strap })
        let old = strap.link
        #expect(strap.members.contains(old))
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
        #expect(strap.links == 2)
        #expect(!strap.members.contains(old))

        let reply = try harness.request(.status, client: client)
        #expect(reply["ok"] == .bool(true))
        #expect(strap.closedNumbers.contains(old.rawValue))
    }

    /// The strap's readiness set is registered once; links replaced under it keep being heard, each
    /// readable link handed to the strap once per turn, and the old links never again.
    @Test func aStrapThatReplacesItsLinksKeepsBeingServed() throws {
        let strap = try ReplacingStrap()
        let harness = try DaemonHarness(options: { $0.strap = strap })
        let first = strap.link
        strap.send()
        #expect(harness.run(limit: 100) { strap.heard.count == 1 })
        #expect(strap.heard == [first])

        var current = [first]
        for links in 2...4 {
            _ = strap.connect(to: StrapAddress(address: nil), nowMs: harness.daemon.clock.monotonicMs())
            #expect(strap.links == links)
            current.append(strap.link)
            strap.send()
            #expect(harness.run(limit: 100) { strap.heard.count == links })
        }
        // The numbers are reused (a new pipe opens before the old closes), so the order says it: each link
        // was heard once, while it was the strap's.
        #expect(strap.heard == current)
        #expect(strap.members.members.count == 1, "only the current link is watched")
    }

    /// The strap's set broken under the daemon (its number made a plain file): the loop stops with exit
    /// status 1 and one error line rather than find the set readable for ever.
    @Test func aStrapSetThatCannotBeReadStopsTheLoop() throws {
        let strap = try ReplacingStrap()
        let h = try DaemonHarness(options: { $0.strap = strap })
        strap.send()
        // A second copy keeps the set itself alive, still registered and readable (its member has a byte);
        // its number becomes /dev/null, on which epoll_wait fails (EINVAL).
        let number = strap.members.descriptor.rawValue
        let keep = dup(number)
        defer { close(keep) }
        let null = open("/dev/null", O_RDONLY)
        #expect(keep >= 0 && null >= 0)
        #expect(dup2(null, number) == number)
        close(null)
        #expect(h.daemon.run() == 1)
        #expect(h.daemon.loopFailure != nil)
        let failure = h.journal.lines.filter { $0.contains("the event loop failed") }
        #expect(failure.count == 1, "\(h.journal.lines)")
    }
}

/// The daemon tells the strap where to connect; the strap reads no database.
@Suite struct DaemonStrapAddressTests {
    @Test("each connect is told the pairing stored then, so a new pairing needs no restart")
    func eachConnectIsToldTheStoredPairing() throws {
        let strap = RecordingStrap()
        let h = try DaemonHarness(edit: { $0.strap = .bluetooth }, options: { $0.strap = strap })
        try h.store.setSettings([(.strapAddress, "A0:9E:1A:00:00:01"), (.strapAddressType, "public")])
        h.keyQuestionnaire()
        h.daemon.process(.session(.measure(overwrite: false)), now: h.daemon.clock.monotonicMs())
        #expect(strap.asked == [StrapAddress(address: "A0:9E:1A:00:00:01", type: "public")])

        // `recoverydeck pair` stores another strap while the daemon runs.
        _ = h.daemon.process(.session(.cancel), now: h.daemon.clock.monotonicMs())
        try h.store.setSettings([(.strapAddress, "C0:9E:1A:00:00:02"), (.strapAddressType, nil)])
        h.daemon.process(.session(.measure(overwrite: false)), now: h.daemon.clock.monotonicMs())
        #expect(strap.asked.last == StrapAddress(address: "C0:9E:1A:00:00:02", type: nil))
    }

    @Test("the configured address and type come before the stored pairing; nothing paired is said as nil")
    func theConfiguredAddressComesFirst() throws {
        let configured = RecordingStrap()
        let h = try DaemonHarness(
            edit: {
                $0.strap = .bluetooth
                $0.strapAddress = "A0:9E:1A:00:00:03"
                $0.strapAddressType = "random"
            }, options: { $0.strap = configured })
        try h.store.setSettings([(.strapAddress, "A0:9E:1A:00:00:01"), (.strapAddressType, "public")])
        h.keyQuestionnaire()
        h.daemon.process(.session(.measure(overwrite: false)), now: h.daemon.clock.monotonicMs())
        #expect(configured.asked == [StrapAddress(address: "A0:9E:1A:00:00:03", type: "random")])

        let unpaired = RecordingStrap()
        let bare = try DaemonHarness(edit: { $0.strap = .bluetooth }, options: { $0.strap = unpaired })
        bare.keyQuestionnaire()
        bare.daemon.process(.session(.measure(overwrite: false)), now: bare.daemon.clock.monotonicMs())
        #expect(unpaired.asked == [StrapAddress(address: nil)])
    }
}

/// A strap that only records where it was asked to connect.
final class RecordingStrap: StrapSource {
    private(set) var asked: [StrapAddress] = []
    var readiness: ReadinessSet? { nil }
    func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [StrapEvent] { [] }
    var nextDeadlineMs: Int64? { nil }
    func onDeadline(nowMs: Int64) -> [StrapEvent] { [] }
    func connect(to address: StrapAddress, nowMs: Int64) -> [StrapEvent] {
        asked.append(address)
        return []
    }
    func disconnect() -> [StrapEvent] { [] }
    func personStands(atMs: Int64) {}
    var statusLine: String { "recording strap" }
    func close() {}
}

/// A strap whose every connect replaces its link, as a re-pair to another strap does: a new descriptor
/// (a pipe's read end) is opened and watched before the old one leaves the set and is closed, as
/// `BluetoothStrap` does.
final class ReplacingStrap: StrapSource {
    let members: ReadinessSet
    private var pipeEnds: (read: FileDescriptor, write: FileDescriptor)
    private(set) var links = 1
    private(set) var closedNumbers: [CInt] = []
    /// The links the daemon handed back as readable, in order.
    private(set) var heard: [FileDescriptor] = []

    init() throws {
        members = try ReadinessSet()
        pipeEnds = ReplacingStrap.makePipe()
        try members.watch(pipeEnds.read)
    }

    deinit { closeLink() }

    var link: FileDescriptor { pipeEnds.read }

    private static func makePipe() -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [CInt] = [-1, -1]
        precondition(pipe(&fds) == 0, "pipe failed")
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    private func closeLink() {
        closedNumbers.append(pipeEnds.read.rawValue)
        members.unwatch(pipeEnds.read)
        pipeEnds.read.close()
        pipeEnds.write.close()
    }

    /// One byte on the current link: it is readable until the strap reads it.
    func send() {
        var byte: UInt8 = 1
        precondition(write(pipeEnds.write.rawValue, &byte, 1) == 1, "write failed")
    }

    var readiness: ReadinessSet? { members }
    func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [StrapEvent] {
        heard.append(fd)
        var byte: UInt8 = 0
        _ = read(fd.rawValue, &byte, 1)
        return []
    }
    var nextDeadlineMs: Int64? { nil }
    func onDeadline(nowMs: Int64) -> [StrapEvent] { [] }
    func connect(to address: StrapAddress, nowMs: Int64) -> [StrapEvent] {
        let fresh = ReplacingStrap.makePipe()
        try! members.watch(fresh.read)
        closeLink()
        pipeEnds = fresh
        links += 1
        return []
    }
    func disconnect() -> [StrapEvent] { [] }
    func personStands(atMs: Int64) {}
    var statusLine: String { "replacing strap" }
    func close() {}
}

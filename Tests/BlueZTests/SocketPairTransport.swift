import HeartRateProtocol
import Platform
import TestSupport
import Testing

@testable import BlueZ

#if canImport(Glibc)
    import Glibc
#endif

/// Stands in for the kernel's L2CAP socket: each connection is a fresh
/// `socketpair(AF_UNIX, SOCK_SEQPACKET)` (record boundaries like L2CAP's), the link's end handed to
/// the `StrapLink`, the other kept as the strap's.
final class SocketPairTransport: ATTTransport {
    /// What the next `connect` does.
    enum Plan {
        case connectAtOnce, pending
        case refuse(BlueZError)
    }

    var plans: [Plan] = []
    private(set) var strapEnds: [FileDescriptor] = []
    private(set) var connectCalls = 0
    /// The strap address and address type of each connect, in order.
    private(set) var dialled: [(BluetoothAddress, BluetoothAddressType)] = []
    /// Called at each `connect`, before the socket exists (to see what had been done before dialling).
    var onConnect: () -> Void = {}

    deinit { strapEnds.forEach { $0.close() } }

    func connect(from adapter: BluetoothAddress, to strap: BluetoothAddress, type: BluetoothAddressType)
        throws(BlueZError) -> (FileDescriptor, connected: Bool)
    {
        connectCalls += 1
        dialled.append((strap, type))
        onConnect()
        let plan = plans.isEmpty ? .connectAtOnce : plans.removeFirst()
        if case .refuse(let error) = plan { throw error }
        let pair = try! SeqPacketPair()
        strapEnds.append(pair.strap)
        if case .pending = plan { return (pair.box, false) }
        return (pair.box, true)
    }

    func connectionResult(_ fd: FileDescriptor, strap: BluetoothAddress) -> BlueZError? { nil }

    /// The strap's end of the latest connection.
    var strap: FakeStrap { FakeStrap(fd: strapEnds.last!) }

    /// Closes the strap's end of the latest connection: the link reads end-of-file, as when the strap
    /// disconnects. Closed here, and only once: tests run in parallel, and a second close could hit a
    /// descriptor number another test has been given meanwhile.
    func hangUp() { strapEnds.removeLast().close() }
}

/// The strap's end of the bearer: the test reads what the link sent and writes what the strap says.
struct FakeStrap {
    let fd: FileDescriptor

    /// The next PDU the link sent, or nil when it sent nothing.
    func received() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 600)
        let n = buffer.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
        return n > 0 ? Array(buffer[..<n]) : nil
    }

    func send(_ bytes: [UInt8]) {
        let n = bytes.withUnsafeBytes { Glibc.send(fd.rawValue, $0.baseAddress, $0.count, 0) }
        precondition(n == bytes.count, "send to the link failed")
    }
}

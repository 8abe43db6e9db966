// Daemon-side CPU time per Heart Rate Measurement notification: a `StrapLink` reading from one end
// of a SEQPACKET socket pair (the L2CAP socket's stand-in), the protocol's GATT server writing an
// H10's notifications into the other. Only the link's work is timed (its onReadable calls: the
// epoll wait, the read, decoding, the events). Prints figures; asserts nothing but delivery.
//   Tests/Benchmarks/BlueZBench/run.sh
import BlueZ
import HeartRateProtocol
import Platform

#if canImport(Glibc)
    import Glibc
#endif

func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Connects at once over a fresh socket pair; the strap's end is kept.
final class PairTransport: ATTTransport {
    var strapEnd = FileDescriptor(rawValue: -1)

    func connect(from adapter: BluetoothAddress, to strap: BluetoothAddress, type: BluetoothAddressType)
        throws(BlueZError) -> (FileDescriptor, connected: Bool)
    {
        var pair: [CInt] = [-1, -1]
        guard socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_NONBLOCK.rawValue), 0, &pair) == 0 else {
            throw .system(call: "socketpair", errno: .current)
        }
        strapEnd = FileDescriptor(rawValue: pair[1])
        return (FileDescriptor(rawValue: pair[0]), true)
    }

    func connectionResult(_ fd: FileDescriptor, strap: BluetoothAddress) -> BlueZError? { nil }
}

func receive(_ fd: FileDescriptor) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 600)
    let n = buffer.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
    return n > 0 ? Array(buffer[..<n]) : nil
}

func send(_ fd: FileDescriptor, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { Glibc.send(fd.rawValue, $0.baseAddress, $0.count, 0) }
}

let transport = PairTransport()
let link = try StrapLink(
    .init(adapter: BluetoothAddress(rawValue: 1), strap: BluetoothAddress(rawValue: 2), strapType: .lePublic),
    transport: transport)
var (server, handles) = GATTServer.heartRateStrap(.polarH10(id: "1A2B3C4D"))
var now: Int64 = 0
_ = link.start(nowMs: now)
_ = server.handle(.connected)
/// The strap answers what the link asked (discovery, then the battery and firmware reads).
@MainActor func serveStrap() {
    while let pdu = receive(transport.strapEnd) {
        for case .send(let answer) in server.handle(.received(pdu)) { send(transport.strapEnd, answer) }
    }
}
while !link.state.isLive {
    serveStrap()
    now += 1
    _ = link.onReadable(nowMs: now)
}

let notifications = 20_000
var rrSent = 0
var rrReceived = 0
var linkNanoseconds: UInt64 = 0
var x: UInt64 = 0x2545_F491_4F6C_DD1D
for i in 0..<notifications {
    x ^= x << 13
    x ^= x >> 7
    x ^= x << 17
    serveStrap()
    let count = Int(x % 3)  // 0–2 RR per notification, as at resting rates
    let rr = (0..<count).map { UInt16(800 + ($0 + i) % 300) }
    rrSent += rr.count
    let value = HeartRateMeasurement(beatsPerMinute: 62, sensorContact: .detected, rrIntervals: rr).encoded()
    guard let pdu = server.notification(value, at: handles.heartRateMeasurement.value) else {
        fatalError("not subscribed")
    }
    send(transport.strapEnd, pdu)
    now += 1000
    let before = threadCPUNanoseconds()
    let events = link.onReadable(nowMs: now)
    linkNanoseconds += threadCPUNanoseconds() - before
    for case .sample(let sample) in events { rrReceived += sample.rrRaw.count }
}
precondition(link.statistics.notifications == notifications && rrReceived == rrSent, "notifications were lost")
let perNotification = Double(linkNanoseconds) / Double(notifications) / 1000
print("StrapLink: \(notifications) notifications, \(rrReceived) RR intervals")
print("daemon-side CPU per notification: \((perNotification * 100).rounded() / 100) µs (thread CPU time, this build)")

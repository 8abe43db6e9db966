// Per-notification cost of the pure protocol code: the share of the daemon's CPU time per
// Heart Rate Measurement notification that HeartRateProtocol accounts for. Prints figures; asserts
// nothing. Built by Tests/Benchmarks/HeartRateProtocolBench/run.sh with -O over the module's sources.
#if canImport(Glibc)
    import Glibc
#endif

func cpuNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

@main
struct Bench {
    static func main() {
        // A client subscribed to the virtual strap's server, driven in-process.
        var (server, handles) = GATTServer.heartRateStrap(.polarH10(id: "1A2B3C4D"))
        var client = GATTClient()
        var toServer: [[UInt8]] = []
        var toClient: [[UInt8]] = []
        for a in client.handle(.linkUp(nowMs: 0)) { if case .send(let b) = a { toServer.append(b) } }
        while !toServer.isEmpty || !toClient.isEmpty {
            if !toServer.isEmpty {
                for a in server.handle(.received(toServer.removeFirst())) {
                    if case .send(let b) = a { toClient.append(b) }
                }
            }
            if !toClient.isEmpty {
                for a in client.handle(.received(toClient.removeFirst(), nowMs: 0)) {
                    if case .send(let b) = a { toServer.append(b) }
                }
            }
        }
        precondition(client.phase == .subscribed, "benchmark set-up did not subscribe")

        // A typical H10 notification: contact detected, 1–2 RR.
        let m = HeartRateMeasurement(beatsPerMinute: 61, sensorContact: .detected, rrIntervals: [1001, 987])
        let pdu = server.notifications(for: m, at: handles.heartRateMeasurement.value)[0]
        let n = 1_000_000
        var rr = 0
        var start = cpuNanoseconds()
        for i in 0..<n {
            for case .measurement(let got, _) in client.handle(.received(pdu, nowMs: Int64(i))) {
                rr += got.rrIntervals.count
            }
        }
        let clientNs = Double(cpuNanoseconds() - start) / Double(n)
        precondition(rr == 2 * n)

        start = cpuNanoseconds()
        var bpm = 0
        let value = Array(pdu.dropFirst(3))
        for _ in 0..<n { bpm &+= Int((try? HeartRateMeasurement(bytes: value))?.beatsPerMinute ?? 0) }
        let decodeNs = Double(cpuNanoseconds() - start) / Double(n)
        precondition(bpm == 61 * n)

        start = cpuNanoseconds()
        var bytes = 0
        for _ in 0..<n { bytes &+= server.notifications(for: m, at: handles.heartRateMeasurement.value)[0].count }
        let encodeNs = Double(cpuNanoseconds() - start) / Double(n)

        print("GATTClient.handle(.received(notification)) with HR decode: \(Int(clientNs.rounded())) ns CPU each")
        print("HeartRateMeasurement(bytes:) alone: \(Int(decodeNs.rounded())) ns CPU")
        print("GATTServer.notifications(for:at:) (strap side): \(Int(encodeNs.rounded())) ns CPU per notification")
        _ = bytes
    }
}

import Platform
import Testing

@Suite("SignalFD: signals as loop events (DESIGN §4; SIGTERM must not interrupt a write)")
struct SignalFDTests {
    // A thread-directed signal keeps this test from touching other tests' threads: the signal is
    // blocked and raised in this thread only, and the signalfd reads it from here.
    @Test("A blocked signal raised in this thread becomes one readable record naming it and its sender")
    func blockedSignalIsReadable() throws {
        let signals = try SignalFD(signals: [.user2])
        defer { signals.close() }
        let loop = try EventLoop()
        defer { loop.close() }
        try loop.register(signals.descriptor)
        #expect(try signals.readPending().isEmpty)
        try SignalFD.raiseInThisThread(.user2)
        #expect(try loop.wait(timeoutMs: 10_000).map(\.descriptor) == [signals.descriptor])
        let read = try signals.readPending()
        #expect(read.map(\.signal) == [.user2])
        #expect(read.first?.senderPID == getpidForTest())
        #expect(try signals.readPending().isEmpty)
    }

    @Test("The service set is SIGTERM, SIGINT and SIGHUP, and signals print their names")
    func serviceSignals() {
        #expect(SignalFD.serviceSignals.map(\.description) == ["SIGTERM", "SIGINT", "SIGHUP"])
    }
}

#if canImport(Glibc)
    import Glibc
    private func getpidForTest() -> Int32 { getpid() }
#endif

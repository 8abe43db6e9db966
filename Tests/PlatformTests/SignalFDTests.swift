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

    // Each service signal, raised in this thread while the default SignalFD holds it, is read back as a
    // record rather than killing the test process; its name is the one libc gives the number.
    @Test("The default SignalFD takes SIGTERM, SIGINT and SIGHUP as records, each named as libc names it")
    func serviceSignals() throws {
        let signals = try SignalFD()
        defer { signals.close() }
        for signal in SignalFD.serviceSignals { try SignalFD.raiseInThisThread(signal) }
        let read = try signals.readPending()
        #expect(Set(read.map(\.signal.rawValue)) == [SIGTERM, SIGINT, SIGHUP])
        for info in read { #expect(info.signal.description == "SIG" + libcAbbreviation(info.signal.rawValue)) }
    }
}

#if canImport(Glibc)
    import Glibc
    private func getpidForTest() -> Int32 { getpid() }

    /// glibc's own name for a signal ("TERM"), from `sigabbrev_np` (glibc 2.32; not in Swift's Glibc
    /// module, so looked up by name).
    private func libcAbbreviation(_ signo: CInt) -> String {
        typealias Abbreviation = @convention(c) (CInt) -> UnsafePointer<CChar>?
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sigabbrev_np"),
            let name = unsafeBitCast(symbol, to: Abbreviation.self)(signo)
        else { return "(no libc name for \(signo))" }
        return String(cString: name)
    }
#endif

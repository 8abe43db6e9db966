import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Signals delivered as readable records on a descriptor, so SIGTERM reaches the event loop as an event
/// between two steps rather than interrupting one (DESIGN §4; a SIGTERM mid-session must leave nothing
/// half-written). The signals are blocked in the calling thread: create it on the daemon's one thread
/// before any other thread starts, or a thread that does not block them may take them instead.
public struct SignalFD: Hashable, Sendable {
    public let descriptor: FileDescriptor
    public let signals: [Signal]

    /// What a service stops or reloads on.
    public static let serviceSignals: [Signal] = [.terminate, .interrupt, .hangup]

    /// Blocks `signals` in the calling thread, then opens a non-blocking descriptor for them.
    /// The corresponding C functions are `pthread_sigmask` and `signalfd`.
    public init(signals: [Signal] = SignalFD.serviceSignals) throws(Errno) {
        let numbers = signals.map(\.rawValue)
        _ = try valueOrErrno { system_sigmask(numbers, block: true) }
        do {
            descriptor = FileDescriptor(rawValue: try valueOrErrno { system_signalfd(numbers) })
        } catch {
            _ = system_sigmask(numbers, block: false)
            throw error
        }
        self.signals = signals
    }

    /// Reads every pending signal; empty when none is pending.
    /// The corresponding C function is `read`.
    public func readPending() throws(Errno) -> [SignalInfo] {
        var result: [SignalInfo] = []
        var info = cplatform_siginfo()
        while true {
            let n = system_signalfd_read(descriptor.rawValue, &info)
            if n == -1 {
                let e = Errno.current
                if e == .interrupted { continue }
                if e == .wouldBlock { return result }
                throw e
            }
            if n == 0 { return result }
            result.append(
                SignalInfo(signal: Signal(rawValue: CInt(info.signo)), senderPID: info.pid, senderUID: info.uid))
        }
    }

    /// Closes the descriptor and, when `unblock`, lets the signals act normally again.
    /// The corresponding C functions are `close` and `pthread_sigmask`.
    public func close(unblock: Bool = true) {
        descriptor.close()
        if unblock { _ = system_sigmask(signals.map(\.rawValue), block: false) }
    }

    /// Sends `signal` to the calling thread only (not the whole process), for tests.
    /// The corresponding C function is `tgkill`.
    public static func raiseInThisThread(_ signal: Signal) throws(Errno) {
        _ = try valueOrErrno { system_raise_in_thread(signal.rawValue) }
    }
}

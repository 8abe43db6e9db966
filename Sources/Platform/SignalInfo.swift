import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// One signal read from a `SignalFD`, with its sender where the kernel names one (`kill`, `sigqueue`).
public struct SignalInfo: Hashable, Sendable {
    public var signal: Signal
    public var senderPID: Int32
    public var senderUID: UInt32

    public init(signal: Signal, senderPID: Int32, senderUID: UInt32) {
        self.signal = signal
        self.senderPID = senderPID
        self.senderUID = senderUID
    }
}

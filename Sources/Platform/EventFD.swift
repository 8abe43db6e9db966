/// A kernel counter whose descriptor is readable while non-zero: how in-process sources (a simulated
/// panel, a simulated strap) wake the same event loop that watches real devices.
/// Non-blocking, close-on-exec.
public struct EventFD: Hashable, Sendable {
    public let descriptor: FileDescriptor

    /// The corresponding C function is `eventfd`.
    public init(initialValue: UInt32 = 0) throws(Errno) {
        descriptor = FileDescriptor(rawValue: try valueOrErrno { system_eventfd(initialValue) })
    }

    /// Adds `count` to the counter, making the descriptor readable.
    /// The corresponding C function is `write`.
    public func signal(_ count: UInt64 = 1) throws(Errno) {
        var value = count
        _ = try withUnsafeBytes(of: &value) { (b) throws(Errno) -> Int in try descriptor.write(b) }
    }

    /// Reads and resets the counter; 0 when it was already zero.
    /// The corresponding C function is `read`.
    @discardableResult
    public func drain() throws(Errno) -> UInt64 {
        var value: UInt64 = 0
        do {
            _ = try withUnsafeMutableBytes(of: &value) { (b) throws(Errno) -> Int in try descriptor.read(into: b) }
            return value
        } catch  where error == .wouldBlock {
            return 0
        }
    }

    /// The corresponding C function is `close`.
    public func close() { descriptor.close() }
}

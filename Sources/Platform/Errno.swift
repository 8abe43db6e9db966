#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX error number from a failed system call, after swift-system's `Errno`.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: CInt

    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

    /// The system's words for the error alone ("No such file or directory"), for a sentence that names what
    /// failed. The corresponding C function is `strerror`.
    public var message: String { String(cString: strerror(rawValue)) }

    public var description: String { message + " (errno \(rawValue))" }

    public static let fileExists = Errno(rawValue: EEXIST)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let inProgress = Errno(rawValue: EINPROGRESS)
    public static let permissionDenied = Errno(rawValue: EPERM)
    public static let accessDenied = Errno(rawValue: EACCES)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noEntry = Errno(rawValue: ENOENT)
    public static let busy = Errno(rawValue: EBUSY)
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let hostDown = Errno(rawValue: EHOSTDOWN)
    public static let notConnected = Errno(rawValue: ENOTCONN)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let rfkilled = Errno(rawValue: ERFKILL)
}

/// Runs a system call, retrying on `EINTR`, and turns `-1` into the thrown `Errno`.
@inlinable
public func valueOrErrno<I: FixedWidthInteger>(_ body: () -> I) throws(Errno) -> I {
    while true {
        let result = body()
        if result != -1 { return result }
        let e = Errno.current
        if e != .interrupted { throw e }
    }
}

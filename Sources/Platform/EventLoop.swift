import CPlatform

/// The readiness primitive of the box's single-threaded daemon: an epoll instance (DESIGN §4 "One event
/// loop"). It only reports which descriptors are ready; the daemon decides what to do with them.
/// A tiny value type: copies share the one epoll descriptor, closed once by its owner.
public struct EventLoop: Hashable, Sendable {
    /// The epoll descriptor itself (an epoll instance is pollable, so loops may nest).
    public let descriptor: FileDescriptor

    /// Most descriptors reported by one `wait`; the rest stay ready for the next call.
    public static let maximumEventsPerWait = 64

    /// Creates the epoll instance (close-on-exec).
    /// The corresponding C function is `epoll_create1`.
    public init() throws(Errno) {
        descriptor = FileDescriptor(rawValue: try valueOrErrno { system_epoll_create() })
    }

    /// Starts watching `fd` (level-triggered).
    /// The corresponding C function is `epoll_ctl` with `EPOLL_CTL_ADD`.
    public func register(_ fd: FileDescriptor, for events: IOEvents = .readable) throws(Errno) {
        _ = try valueOrErrno { system_epoll_ctl(descriptor.rawValue, CInt(CPLATFORM_EPOLL_CTL_ADD), fd.rawValue, events.rawValue) }
    }

    /// Changes what is watched on an already registered `fd`.
    /// The corresponding C function is `epoll_ctl` with `EPOLL_CTL_MOD`.
    public func modify(_ fd: FileDescriptor, for events: IOEvents) throws(Errno) {
        _ = try valueOrErrno { system_epoll_ctl(descriptor.rawValue, CInt(CPLATFORM_EPOLL_CTL_MOD), fd.rawValue, events.rawValue) }
    }

    /// Stops watching `fd`. Unregister before closing: a descriptor duplicated elsewhere stays watched.
    /// The corresponding C function is `epoll_ctl` with `EPOLL_CTL_DEL`.
    public func unregister(_ fd: FileDescriptor) throws(Errno) {
        _ = try valueOrErrno { system_epoll_ctl(descriptor.rawValue, CInt(CPLATFORM_EPOLL_CTL_DEL), fd.rawValue, 0) }
    }

    /// Waits until a registered descriptor is ready or `timeoutMs` passes (nil: no timeout, 0: just look).
    /// Returns the ready descriptors, empty on timeout. A signal interrupting the wait also returns
    /// empty rather than restarting the full timeout, so the caller recomputes its deadlines.
    /// The corresponding C function is `epoll_wait`.
    public func wait(timeoutMs: Int64?) throws(Errno) -> [ReadyDescriptor] {
        let timeout: CInt = timeoutMs.map { CInt(clamping: max(0, $0)) } ?? -1
        let capacity = EventLoop.maximumEventsPerWait
        // The closure returns a Result rather than throwing: withUnsafeTemporaryAllocation rethrows untyped
        // before Swift 6.1 (Debian trixie's swiftlang is 6.0.3), which would lose the typed Errno.
        let outcome = withUnsafeTemporaryAllocation(of: cplatform_ready.self, capacity: capacity) {
            (buffer) -> Result<[ReadyDescriptor], Errno> in
            let n = system_epoll_wait(descriptor.rawValue, buffer.baseAddress!, CInt(capacity), timeout)
            if n == -1 {
                let e = Errno.current
                return e == .interrupted ? .success([]) : .failure(e)
            }
            return .success(
                (0..<Int(n)).map {
                    ReadyDescriptor(
                        descriptor: FileDescriptor(rawValue: buffer[$0].fd), events: IOEvents(rawValue: buffer[$0].events))
                })
        }
        switch outcome {
        case .success(let ready): return ready
        case .failure(let error): throw error
        }
    }

    /// Waits until a descriptor is ready or the monotonic clock reaches `deadlineMs` (nil: no deadline).
    /// `nowMs` is the caller's reading of `SystemClock.monotonicMs()`.
    public func wait(untilMs deadlineMs: Int64?, nowMs: Int64) throws(Errno) -> [ReadyDescriptor] {
        try wait(timeoutMs: deadlineMs.map { max(0, $0 - nowMs) })
    }

    /// The corresponding C function is `close`.
    public func close() { descriptor.close() }

    /// The earliest of several optional deadlines (the one the loop's timer is armed to).
    public static func earliest(_ deadlines: [Int64?]) -> Int64? {
        deadlines.compactMap { $0 }.min()
    }
}

import CBlueZ
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// What a watched descriptor is waited for.
public struct Readiness: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let readable = Readiness(rawValue: cbluez_epoll_in())
    public static let writable = Readiness(rawValue: cbluez_epoll_out())
    /// Reported whether asked for or not: an error or hang-up on the descriptor.
    public static let error = Readiness(rawValue: cbluez_epoll_err())
    public static let hangUp = Readiness(rawValue: cbluez_epoll_hup())
}

/// An epoll instance owned by one edge object: its own sockets, which come and go with each
/// connection attempt, sit inside, and the owner's event loop watches only `descriptor`, which is
/// readable whenever a member is ready (epoll(7): an epoll descriptor is itself pollable). The
/// loop's registration never goes stale when a socket is closed and its number reused.
final class ReadinessSet {
    let descriptor: FileDescriptor
    private var watched: [CInt: Readiness] = [:]

    init() throws(BlueZError) {
        let fd = epoll_create1(CInt(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw .system(call: "epoll_create1", errno: .current) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }

    /// Watches `fd` for `readiness` (replacing what it was watched for).
    func watch(_ fd: FileDescriptor, for readiness: Readiness) {
        let op = watched[fd.rawValue] == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD
        if watched[fd.rawValue] == readiness { return }
        // Only EBADF/ENOMEM can fail here for a descriptor this object owns; both mean the
        // descriptor is gone, which the next read reports.
        _ = cbluez_epoll_control(descriptor.rawValue, op, fd.rawValue, readiness.rawValue)
        watched[fd.rawValue] = readiness
    }

    /// Stops watching `fd`; call before closing it.
    func unwatch(_ fd: FileDescriptor) {
        guard watched.removeValue(forKey: fd.rawValue) != nil else { return }
        _ = cbluez_epoll_control(descriptor.rawValue, EPOLL_CTL_DEL, fd.rawValue, 0)
    }

    /// The members ready now, waiting up to `timeoutMs` (0: not at all; the event loop's case).
    func ready(timeoutMs: Int32 = 0) -> [(FileDescriptor, Readiness)] {
        var fds = [CInt](repeating: -1, count: 16)
        var events = [UInt32](repeating: 0, count: 16)
        let count = cbluez_epoll_wait(descriptor.rawValue, &fds, &events, 16, timeoutMs)
        guard count > 0 else { return [] }
        return (0..<Int(count)).map { (FileDescriptor(rawValue: fds[$0]), Readiness(rawValue: events[$0])) }
    }
}

import Platform

/// An epoll set (Platform's `EventLoop`) owned by one edge object: its own sockets, which come and
/// go with each connection attempt, sit inside, and the owner's event loop watches only
/// `descriptor`, which is readable whenever a member is ready (epoll(7): an epoll descriptor is
/// itself pollable). The owner's registration never goes stale when a socket is closed and its
/// number reused.
final class ReadinessSet {
    private let loop: EventLoop
    private var watched: [FileDescriptor: IOEvents] = [:]

    init() throws(BlueZError) {
        do {
            loop = try EventLoop()
        } catch {
            throw .system(call: "epoll_create1", errno: error)
        }
    }

    deinit { loop.close() }

    var descriptor: FileDescriptor { loop.descriptor }

    /// Watches `fd` for `events` (replacing what it was watched for).
    func watch(_ fd: FileDescriptor, for events: IOEvents) {
        guard watched[fd] != events else { return }
        // Only EBADF/ENOMEM can fail here for a descriptor this object owns; both mean the
        // descriptor is gone, which its next read reports.
        if watched[fd] == nil { try? loop.register(fd, for: events) } else { try? loop.modify(fd, for: events) }
        watched[fd] = events
    }

    /// Stops watching `fd`; call before closing it.
    func unwatch(_ fd: FileDescriptor) {
        guard watched.removeValue(forKey: fd) != nil else { return }
        try? loop.unregister(fd)
    }

    /// The members ready now, without waiting (the owner's loop already waited).
    func ready() -> [ReadyDescriptor] { (try? loop.wait(timeoutMs: 0)) ?? [] }
}

/// An epoll set (`EventLoop`) owned by one edge object: its own descriptors, which come and go with each
/// connection attempt, client or scan, sit inside, and the owner's event loop watches only `descriptor`,
/// which is readable whenever a member is ready (epoll(7): an epoll descriptor is itself pollable). The
/// owner's registration is made once and never goes stale when a member is closed and its number reused.
public final class ReadinessSet {
    private let loop: EventLoop
    private var watched: [FileDescriptor: IOEvents] = [:]

    /// The corresponding C function is `epoll_create1`.
    public init() throws(Errno) {
        loop = try EventLoop()
    }

    deinit { loop.close() }

    /// The one descriptor the owner's loop watches for readability, for the set's whole life.
    public var descriptor: FileDescriptor { loop.descriptor }

    /// The members and what each is watched for.
    public var members: [FileDescriptor: IOEvents] { watched }

    public func contains(_ fd: FileDescriptor) -> Bool { watched[fd] != nil }

    /// Watches `fd` for `events` (replacing what it was watched for). A refusal (ENOMEM, ENOSPC at the
    /// user's watch limit, EBADF for a closed descriptor) leaves `fd` as it was, watched or not: the
    /// caller decides what a descriptor nobody watches means.
    /// The corresponding C function is `epoll_ctl` with `EPOLL_CTL_ADD` or `EPOLL_CTL_MOD`.
    public func watch(_ fd: FileDescriptor, for events: IOEvents = .readable) throws(Errno) {
        guard watched[fd] != events else { return }
        if watched[fd] == nil { try loop.register(fd, for: events) } else { try loop.modify(fd, for: events) }
        watched[fd] = events
    }

    /// Stops watching `fd`; call before closing it. Closing a descriptor's last copy already took it out
    /// of the set (epoll(7)), so "not there" needs no answer.
    /// The corresponding C function is `epoll_ctl` with `EPOLL_CTL_DEL`.
    public func unwatch(_ fd: FileDescriptor) {
        guard watched.removeValue(forKey: fd) != nil else { return }
        try? loop.unregister(fd)
    }

    /// The members ready now, without waiting (the owner's loop already waited). Each ready member is
    /// reported once per call. A failure means the set itself is gone (its number closed or reused):
    /// the owner must stop watching `descriptor` rather than find it readable again at once.
    /// The corresponding C function is `epoll_wait` with a zero timeout.
    public func ready() throws(Errno) -> [ReadyDescriptor] { try loop.wait(timeoutMs: 0) }
}

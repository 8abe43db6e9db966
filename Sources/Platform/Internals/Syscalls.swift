import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

// One internal function per system call (after swift-system's Internals/Syscalls.swift). Each
// keeps the C contract (-1 and errno); callers wrap them in `valueOrErrno`.

internal func system_epoll_create() -> CInt { cplatform_epoll_create() }

internal func system_epoll_ctl(_ epfd: CInt, _ op: CInt, _ fd: CInt, _ events: UInt32) -> CInt {
    cplatform_epoll_ctl(epfd, op, fd, events)
}

internal func system_epoll_wait(
    _ epfd: CInt, _ out: UnsafeMutablePointer<cplatform_ready>, _ capacity: CInt, _ timeoutMs: CInt
) -> CInt {
    cplatform_epoll_wait(epfd, out, capacity, timeoutMs)
}

internal func system_timerfd_create(clock: CInt) -> CInt { cplatform_timerfd_create(clock) }

/// `clock` is the one the timer was created on; it decides the flags (see CPlatform.h).
internal func system_timerfd_settime(_ fd: CInt, clock: CInt, seconds: Int64, nanoseconds: Int64) -> CInt {
    cplatform_timerfd_settime_absolute(fd, clock, seconds, nanoseconds)
}

internal func system_sigmask(_ signals: [CInt], block: Bool) -> CInt {
    signals.withUnsafeBufferPointer { cplatform_sigmask($0.baseAddress, CInt($0.count), block ? 1 : 0) }
}

internal func system_signalfd(_ signals: [CInt]) -> CInt {
    signals.withUnsafeBufferPointer { cplatform_signalfd_create($0.baseAddress, CInt($0.count)) }
}

internal func system_signalfd_read(_ fd: CInt, _ out: UnsafeMutablePointer<cplatform_siginfo>) -> Int {
    cplatform_signalfd_read(fd, out)
}

internal func system_raise_in_thread(_ signo: CInt) -> CInt { cplatform_raise_in_thread(signo) }

internal func system_eventfd(_ initial: UInt32) -> CInt { cplatform_eventfd_create(initial) }

internal func system_peer_credentials(_ fd: CInt, _ out: UnsafeMutablePointer<cplatform_credentials>) -> CInt {
    cplatform_peer_credentials(fd, out)
}

internal func system_peer_groups(
    _ fd: CInt, _ out: UnsafeMutablePointer<UInt32>, _ capacity: CInt, _ needed: UnsafeMutablePointer<CInt>
) -> CInt {
    cplatform_peer_groups(fd, out, capacity, needed)
}

internal func system_socket(_ domain: CInt, _ type: CInt, _ proto: CInt) -> CInt {
    Glibc.socket(domain, type | CInt(SOCK_CLOEXEC.rawValue), proto)
}

internal func system_bind(_ fd: CInt, _ addr: UnsafePointer<sockaddr>, _ len: socklen_t) -> CInt {
    Glibc.bind(fd, addr, len)
}

internal func system_connect(_ fd: CInt, _ addr: UnsafePointer<sockaddr>, _ len: socklen_t) -> CInt {
    Glibc.connect(fd, addr, len)
}

internal func system_listen(_ fd: CInt, _ backlog: CInt) -> CInt { Glibc.listen(fd, backlog) }

internal func system_accept(_ fd: CInt) -> CInt { cplatform_accept(fd) }

internal func system_sendto(
    _ fd: CInt, _ buffer: UnsafeRawBufferPointer, _ addr: UnsafePointer<sockaddr>, _ len: socklen_t
) -> Int {
    Glibc.sendto(fd, buffer.baseAddress, buffer.count, CInt(MSG_NOSIGNAL), addr, len)
}

internal func system_send(_ fd: CInt, _ buffer: UnsafeRawBufferPointer) -> Int {
    Glibc.send(fd, buffer.baseAddress, buffer.count, CInt(MSG_NOSIGNAL))
}

internal func system_recv(_ fd: CInt, _ buffer: UnsafeMutableRawBufferPointer, flags: CInt = 0) -> Int {
    Glibc.recv(fd, buffer.baseAddress, buffer.count, flags)
}

internal func system_socketpair(_ type: CInt, _ fds: UnsafeMutablePointer<CInt>) -> CInt {
    Glibc.socketpair(AF_UNIX, type | CInt(SOCK_CLOEXEC.rawValue), 0, fds)
}

internal func system_unlink(_ path: String) -> CInt { Glibc.unlink(path) }

internal func system_poll(_ fds: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeoutMs: CInt) -> CInt {
    Glibc.poll(fds, count, timeoutMs)
}

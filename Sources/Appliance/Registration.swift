import Platform

/// The daemon's descriptors as its one epoll loop sees them (DESIGN §4). Each edge is registered once, at
/// start-up, by one descriptor that stays the same for the daemon's life: its own (the timers, the
/// signalfd, the panel's lines) or, for an edge whose descriptors come and go (the strap's links, the
/// control socket's clients, a scan's management channel), the edge's `ReadinessSet`. Nothing here follows
/// an edge's changes, so no descriptor number an edge closed is left registered for the next owner of the
/// number to miss.
final class Registration {
    /// Who owns a ready descriptor.
    enum Edge: Hashable {
        case timer, wallTimer, signals, panel, strap, control, discovery
    }

    /// One ready descriptor and its edge; for an edge with a readiness set, a member of the set.
    struct Ready {
        var edge: Edge
        var descriptor: FileDescriptor
        var events: IOEvents
    }

    let loop: EventLoop
    private var direct: [FileDescriptor: Edge] = [:]
    private var nested: [FileDescriptor: (edge: Edge, set: ReadinessSet)] = [:]

    init() throws(Errno) {
        loop = try EventLoop()
    }

    /// Registers a descriptor that stays open, and the same, for the daemon's life.
    func register(_ fd: FileDescriptor, as edge: Edge) throws(Errno) {
        try loop.register(fd)
        direct[fd] = edge
    }

    /// Registers an edge's readiness set: its members are reported as the edge's.
    func register(_ set: ReadinessSet, as edge: Edge) throws(Errno) {
        try loop.register(set.descriptor)
        nested[set.descriptor] = (edge, set)
    }

    /// Waits until something is ready or `timeoutMs` passes (nil: no timeout), and lists what is ready,
    /// each set's members in place of the set. A set that cannot be read is gone (its number closed or
    /// reused): the loop cannot go on, because the outer level-triggered epoll would report it at once again.
    func wait(timeoutMs: Int64?) throws(Errno) -> [Ready] {
        var ready: [Ready] = []
        for item in try loop.wait(timeoutMs: timeoutMs) {
            if let edge = direct[item.descriptor] {
                ready.append(Ready(edge: edge, descriptor: item.descriptor, events: item.events))
            } else if let owner = nested[item.descriptor] {
                for member in try owner.set.ready() {
                    ready.append(Ready(edge: owner.edge, descriptor: member.descriptor, events: member.events))
                }
            }
        }
        return ready
    }

    func close() { loop.close() }
}

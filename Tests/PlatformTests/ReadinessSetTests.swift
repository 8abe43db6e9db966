import Platform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An edge's own epoll set inside the daemon's loop (epoll(7): an epoll descriptor is itself pollable).
@Suite("ReadinessSet: one stable descriptor for an edge whose descriptors come and go")
struct ReadinessSetTests {
    /// The outer loop the daemon would run, with the set registered once.
    private func outer(_ set: ReadinessSet) throws -> EventLoop {
        let loop = try EventLoop()
        try loop.register(set.descriptor)
        return loop
    }

    @Test("A member that becomes ready makes the set readable; ready() names the member, with its bits")
    func memberReadinessReachesTheOuterLoop() throws {
        let set = try ReadinessSet()
        let loop = try outer(set)
        defer { loop.close() }
        let a = try EventFD()
        defer { a.close() }
        try set.watch(a.descriptor)
        #expect(try loop.wait(timeoutMs: 0).isEmpty, "a quiet member leaves the set quiet")
        #expect(try set.ready().isEmpty)

        try a.signal()
        #expect(try loop.wait(timeoutMs: 0) == [ReadyDescriptor(descriptor: set.descriptor, events: .readable)])
        #expect(try set.ready() == [ReadyDescriptor(descriptor: a.descriptor, events: .readable)])
        #expect(try a.drain() == 1)
        #expect(try loop.wait(timeoutMs: 0).isEmpty, "drained, nothing wakes the loop")
    }

    @Test("Two members ready at once: the set is reported once, each member once")
    func readinessIsReportedOncePerEdge() throws {
        let set = try ReadinessSet()
        let loop = try outer(set)
        defer { loop.close() }
        let a = try EventFD(initialValue: 1)
        let b = try EventFD(initialValue: 1)
        let quiet = try EventFD()
        defer {
            a.close()
            b.close()
            quiet.close()
        }
        for member in [a, b, quiet] { try set.watch(member.descriptor) }
        #expect(try loop.wait(timeoutMs: 0).map(\.descriptor) == [set.descriptor])
        let ready = try set.ready()
        #expect(ready.count == 2)
        #expect(Set(ready.map(\.descriptor)) == [a.descriptor, b.descriptor])
    }

    @Test("Removing a member silences it; watching it again for other events replaces what it was watched for")
    func addRemoveReplace() throws {
        let set = try ReadinessSet()
        let loop = try outer(set)
        defer { loop.close() }
        let a = try EventFD(initialValue: 1)
        defer { a.close() }
        try set.watch(a.descriptor, for: .readable)
        #expect(set.contains(a.descriptor))
        #expect(try set.ready().map(\.events) == [.readable])

        try set.watch(a.descriptor, for: .writable)
        #expect(set.members == [a.descriptor: .writable])
        #expect(try set.ready().map(\.events) == [.writable])
        try set.watch(a.descriptor, for: .writable)  // the same again: nothing to change, nothing refused

        set.unwatch(a.descriptor)
        #expect(!set.contains(a.descriptor))
        #expect(try set.ready().isEmpty)
        #expect(try loop.wait(timeoutMs: 0).isEmpty, "an empty set is never readable")
        set.unwatch(a.descriptor)  // twice: nothing left to remove
    }

    @Test("A member replaced by a new descriptor on the same number is heard, through the same registration")
    func replacedMemberOnAReusedNumber() throws {
        let set = try ReadinessSet()
        let loop = try outer(set)
        defer { loop.close() }
        let old = try EventFD()
        try set.watch(old.descriptor)
        set.unwatch(old.descriptor)
        // dup2 closes the old descriptor and puts a new one on its number in one step (no other test's
        // descriptor can take the number in between).
        let made = try EventFD(initialValue: 1)
        #expect(dup2(made.descriptor.rawValue, old.descriptor.rawValue) == old.descriptor.rawValue)
        made.close()
        let fresh = old.descriptor
        defer { fresh.close() }
        try set.watch(fresh)
        #expect(try loop.wait(timeoutMs: 0).map(\.descriptor) == [set.descriptor])
        #expect(try set.ready().map(\.descriptor) == [fresh])
    }

    @Test("A refused watch throws and leaves the set as it was")
    func refusedWatchIsThrown() throws {
        let set = try ReadinessSet()
        // A descriptor number no process can have open (above any open-file limit): a number freshly closed
        // here may be handed at once to a test running beside this one, and then the watch succeeds.
        let closed = FileDescriptor(rawValue: CInt.max)
        #expect(throws: Errno(rawValue: EBADF)) { try set.watch(closed) }
        #expect(set.members.isEmpty)
        // epoll(7) refuses regular files (EPERM).
        let file = open("/proc/self/stat", O_RDONLY)
        defer { close(file) }
        #expect(file >= 0)
        #expect(throws: Errno.permissionDenied) { try set.watch(FileDescriptor(rawValue: file)) }
        #expect(!set.contains(FileDescriptor(rawValue: file)))
    }

    @Test("A set whose number no longer is an epoll instance fails ready() with the error, not an empty list")
    func readyFailureIsThrown() throws {
        let set = try ReadinessSet()
        let null = open("/dev/null", O_RDONLY)
        #expect(null >= 0)
        #expect(dup2(null, set.descriptor.rawValue) == set.descriptor.rawValue)
        close(null)
        #expect(throws: Errno(rawValue: EINVAL)) { try set.ready() }
    }
}

import Platform
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Unix sockets with peer credentials (DESIGN §4: control socket, peer credentials checked)")
struct UnixSocketTests {
    @Test("A client connecting to a path listener is accepted, and the server sees the client's pid/uid/gid")
    func peerCredentialsOfALocalClient() throws {
        let dir = TemporaryDirectory("recoverydeck-platform")
        let address = try #require(UnixSocketAddress(dir.path + "/control.sock"))
        let listener = try UnixListener.listen(at: address, mode: 0o660)
        defer {
            listener.close()
        }
        #expect(try listener.accept() == nil)
        let client = try UnixConnection.connect(to: address)
        defer { client.close() }
        let server = try #require(try listener.accept())
        defer { server.close() }
        let peer = try server.peerCredentials()
        #expect(
            peer
                == PeerCredentials(
                    pid: getpid(), uid: getuid(), gid: getgid(), groups: ProcessIdentity.currentGroups().map { UInt32($0) }))
        var info = stat()
        #expect(stat(address.text, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o660)
    }

    @Test("A listener that never accepts, its backlog full: connect gives up with ETIMEDOUT instead of hanging")
    func connectTimesOutOnAFullBacklog() throws {
        let dir = TemporaryDirectory("recoverydeck-platform")
        let address = try #require(UnixSocketAddress(dir.path + "/full.sock"))
        let listener = try UnixListener.listen(at: address, backlog: 1)
        var queued: [UnixConnection] = []
        defer {
            for c in queued { c.close() }
            listener.close()
        }
        // unix(7): connect on a full backlog blocks (or EAGAIN when non-blocking); fill it.
        for _ in 0..<8 {
            guard let c = try? UnixConnection.connect(to: address, timeoutMs: 0) else { break }
            queued.append(c)
        }
        #expect(queued.count < 8, "the backlog should have filled")
        #expect(throws: Errno.timedOut) { try UnixConnection.connect(to: address, timeoutMs: 100) }
    }

    @Test("SEQPACKET keeps each request a separate record; a closed peer reads as empty, nothing waiting as nil")
    func seqpacketRecordsAndClose() throws {
        let (a, b) = try UnixConnection.pair(kind: .seqpacket)
        defer { b.close() }
        #expect(try b.receive() == nil)
        try a.send(Array("measure".utf8))
        try a.send(Array("watch".utf8))
        #expect(try b.receive().map { String(decoding: $0, as: UTF8.self) } == "measure")
        #expect(try b.receive().map { String(decoding: $0, as: UTF8.self) } == "watch")
        a.close()
        #expect(try b.receive() == [])
        #expect(throws: Errno(rawValue: EPIPE)) { try b.send([1]) }
    }

    @Test("An abstract name (leading @) listens without a file and accepts STREAM clients")
    func abstractStreamListener() throws {
        let name = "@recoverydeck-test-\(getpid())-abstract"
        let address = try #require(UnixSocketAddress(name))
        let listener = try UnixListener.listen(at: address, kind: .stream)
        defer { listener.close() }
        let client = try UnixConnection.connect(to: address, kind: .stream)
        defer { client.close() }
        let server = try #require(try listener.accept())
        defer { server.close() }
        try client.send([1, 2, 3])
        #expect(try server.receive() == [1, 2, 3])
    }

    @Test("Listening over a stale socket file replaces it; over a regular file it fails and leaves the file")
    func staleSocketReplacedRegularFileKept() throws {
        let dir = TemporaryDirectory("recoverydeck-platform")
        let address = try #require(UnixSocketAddress(dir.path + "/control.sock"))
        let first = try UnixListener.listen(at: address)
        first.descriptor.close()  // a crashed daemon: the file stays
        let second = try UnixListener.listen(at: address)
        second.close()
        let other = try #require(UnixSocketAddress(dir.path + "/data"))
        let fd = open(other.text, O_CREAT | O_WRONLY, 0o600)
        Glibc.close(fd)
        #expect(throws: Errno(rawValue: EADDRINUSE)) { try UnixListener.listen(at: other) }
        #expect(access(other.text, F_OK) == 0)
        unlink(other.text)
    }

    @Test("Connecting where nobody listens is ECONNREFUSED for an abstract name, ENOENT for a missing path")
    func connectFailuresAreTyped() throws {
        let abstract = try #require(UnixSocketAddress("@recoverydeck-test-\(getpid())-nobody"))
        #expect(throws: Errno.connectionRefused) { try UnixConnection.connect(to: abstract) }
        let missing = try #require(UnixSocketAddress("/nonexistent-dir/recoverydeck.sock"))
        #expect(throws: Errno.noEntry) { try UnixConnection.connect(to: missing) }
    }

    @Test("Addresses longer than sun_path or empty are refused")
    func addressLimits() {
        #expect(UnixSocketAddress("") == nil)
        #expect(UnixSocketAddress("@") == nil)
        #expect(UnixSocketAddress("/" + String(repeating: "a", count: 106)) != nil)
        #expect(UnixSocketAddress("/" + String(repeating: "a", count: 107)) == nil)
    }
}

@Suite("ServiceGroup: who may use the control socket (root or the service's group)")
struct ServiceGroupTests {
    @Test("root is admitted whatever its gid")
    func rootIsAdmitted() {
        let group = ServiceGroup(name: "recoverydeck", gid: 4242)
        #expect(group.admits(PeerCredentials(pid: 1, uid: 0, gid: 99)))
    }

    @Test("A peer whose process gid is the group is admitted; a stranger is refused")
    func primaryGidAndStranger() {
        let group = ServiceGroup(name: "recoverydeck", gid: 4242)
        #expect(group.admits(PeerCredentials(pid: 10, uid: 4_000_000, gid: 4242)))
        #expect(!group.admits(PeerCredentials(pid: 10, uid: 4_000_000, gid: 4243)))
    }

    // Debian's base passwd: user `daemon` (uid 1) has primary group `daemon` (gid 1). A process of that user
    // that holds another gid and no supplementary groups does not hold the group: the user database is not
    // asked, only what the peer's process holds (SO_PEERGROUPS).
    @Test("Membership is what the peer's process holds (its gid or SO_PEERGROUPS), not what the user database says")
    func membershipFromThePeersProcess() throws {
        let daemonGroup = try #require(try ServiceGroup.named("daemon"))
        #expect(daemonGroup.gid == 1)
        #expect(!daemonGroup.admits(PeerCredentials(pid: 10, uid: 1, gid: 65534)))
        #expect(daemonGroup.admits(PeerCredentials(pid: 10, uid: 65534, gid: 65534, groups: [100, 1])))
        #expect(!daemonGroup.admits(PeerCredentials(pid: 10, uid: 65534, gid: 65534, groups: [100])))
    }

    @Test("SO_PEERGROUPS reports the connecting process's own supplementary groups")
    func peerGroupsFromTheKernel() throws {
        let (a, b) = try UnixConnection.pair()
        defer {
            a.close()
            b.close()
        }
        let held = ProcessIdentity.currentGroups().map { UInt32($0) }
        #expect(try a.peerGroups().sorted() == held.sorted())
        #expect(try a.peerCredentials().groups.sorted() == held.sorted())
    }

    @Test("An unknown group name is nil, not an error")
    func unknownGroup() throws {
        #expect(try ServiceGroup.named("no-such-group-recoverydeck") == nil)
    }
}

import Platform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket standing in for systemd's notification socket.
private struct FakeServiceManager {
    let fd: CInt

    init(address: UnixSocketAddress) throws {
        fd = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue), 0)
        var raw = sockaddr_un()
        raw.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.text.utf8)
        if address.isAbstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &raw.sun_path) { for (i, b) in bytes.enumerated() { $0[i] = b } }
        let length =
            MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count
            + (address.isAbstract ? 0 : 1)
        let rc = withUnsafePointer(to: &raw) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        if rc != 0 { throw Errno.current }
    }

    func receive() -> String {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = recv(fd, &buffer, buffer.count, CInt(MSG_DONTWAIT))
        return n < 0 ? "<nothing>" : String(decoding: buffer.prefix(n), as: UTF8.self)
    }
}

@Suite("NotifySocket: sd_notify without libsystemd (sd_notify(3); DESIGN §7 Type=notify, watchdog)")
struct NotifySocketTests {
    @Test("READY, STATUS and WATCHDOG reach an abstract NOTIFY_SOCKET (@name) as one datagram of assignments")
    func abstractNotifySocket() throws {
        let name = "@recoverydeck-test-notify-\(getpid())"
        let manager = try FakeServiceManager(address: try #require(UnixSocketAddress(name)))
        defer { close(manager.fd) }
        let notify = try #require(try NotifySocket.fromEnvironment { $0 == "NOTIFY_SOCKET" ? name : nil })
        defer { notify.close() }
        try notify.send([.ready, .status("waiting for the morning")])
        #expect(manager.receive() == "READY=1\nSTATUS=waiting for the morning")
        try notify.send([.watchdog])
        #expect(manager.receive() == "WATCHDOG=1")
    }

    @Test("A path NOTIFY_SOCKET works too; STOPPING is sent; a status cannot smuggle a second line")
    func pathNotifySocket() throws {
        let path = "/tmp/recoverydeck-test-notify-\(getpid()).sock"
        unlink(path)
        let manager = try FakeServiceManager(address: try #require(UnixSocketAddress(path)))
        defer {
            close(manager.fd)
            unlink(path)
        }
        let notify = try #require(try NotifySocket.fromEnvironment { $0 == "NOTIFY_SOCKET" ? path : nil })
        defer { notify.close() }
        try notify.send([.status("line one\nREADY=1"), .stopping])
        #expect(manager.receive() == "STATUS=line one READY=1\nSTOPPING=1")
    }

    @Test("No NOTIFY_SOCKET (or an empty one) means no notifications, not an error")
    func unsetNotifySocket() throws {
        #expect(try NotifySocket.fromEnvironment { _ in nil } == nil)
        #expect(try NotifySocket.fromEnvironment { _ in "" } == nil)
    }

    @Test("A vanished manager socket is a typed error the daemon can log (ECONNREFUSED / ENOENT)")
    func vanishedManager() throws {
        let notify = try NotifySocket(address: try #require(UnixSocketAddress("/nonexistent-dir/notify")))
        defer { notify.close() }
        #expect(throws: Errno.noEntry) { try notify.send([.ready]) }
    }

    @Test("WATCHDOG_USEC is read as microseconds for this pid only; zero, junk or another pid disable it")
    func watchdogParsing() {
        func env(_ values: [String: String]) -> (String) -> String? { { values[$0] } }
        #expect(NotifySocket.watchdogMicroseconds(env(["WATCHDOG_USEC": "30000000"]), pid: 7) == 30_000_000)
        #expect(
            NotifySocket.watchdogMicroseconds(env(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"]), pid: 7)
                == 30_000_000)
        #expect(
            NotifySocket.watchdogMicroseconds(env(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "8"]), pid: 7) == nil)
        #expect(NotifySocket.watchdogMicroseconds(env(["WATCHDOG_USEC": "0"]), pid: 7) == nil)
        #expect(NotifySocket.watchdogMicroseconds(env(["WATCHDOG_USEC": "30s"]), pid: 7) == nil)
        #expect(NotifySocket.watchdogMicroseconds(env([:]), pid: 7) == nil)
    }
}

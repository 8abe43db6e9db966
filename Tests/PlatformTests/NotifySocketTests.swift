import Platform
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("NotifySocket: sd_notify without libsystemd (sd_notify(3); DESIGN §7 Type=notify, watchdog)")
struct NotifySocketTests {
    @Test("READY, STATUS and WATCHDOG reach an abstract NOTIFY_SOCKET (@name) as one datagram of assignments")
    func abstractNotifySocket() throws {
        let name = "@recoverydeck-test-notify-\(getpid())"
        let manager = try ServiceManagerSocket(address: try #require(UnixSocketAddress(name)))
        defer { manager.close() }
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
        let manager = try ServiceManagerSocket(address: try #require(UnixSocketAddress(path)))
        defer {
            manager.close()
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

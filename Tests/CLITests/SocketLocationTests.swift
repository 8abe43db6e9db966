import Foundation
import Testing

/// Which control socket `measure`, `watch` and `cancel` use: --socket, else RECOVERYDECK_SOCKET, else
/// /run/recoverydeck/control.sock.
struct SocketLocationTests {
    static let defaultSocket = "/run/recoverydeck/control.sock"

    @Test(
        "an empty RECOVERYDECK_SOCKET counts as unset, as RECOVERYDECK_DB does: the default socket is tried",
        // On a box whose daemon is running, `cancel` would reach it.
        .enabled(if: !FileManager.default.fileExists(atPath: defaultSocket)))
    func emptySocketVariableIsUnset() throws {
        var cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        cli.environment["RECOVERYDECK_SOCKET"] = ""
        let cancelled = try cli.run(["cancel"])
        #expect(cancelled.status == 1)
        #expect(
            cancelled.stderr
                == "recoverydeck cancel: recoverydeckd is not running (no control socket at \(Self.defaultSocket)): "
                + "start it with `systemctl start recoverydeckd`.\n")
    }

    @Test("a RECOVERYDECK_SOCKET that is set is the socket used when --socket is not given")
    func socketVariableUsed() throws {
        var cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let path = cli.directory.appendingPathComponent("no-daemon.sock").path
        cli.environment["RECOVERYDECK_SOCKET"] = path
        let cancelled = try cli.run(["cancel"])
        #expect(cancelled.status == 1)
        #expect(cancelled.stderr.contains("no control socket at \(path))"), "\(cancelled.stderr)")
    }
}

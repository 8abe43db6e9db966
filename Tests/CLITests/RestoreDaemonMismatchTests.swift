import Foundation
import RecoveryCore
import Store
import Testing

/// `restore` pauses a running daemon's writes before it rewrites the database. A daemon that runs but cannot be
/// paused (another protocol version, or silent) stops the restore with one sentence; only no daemon at all lets
/// it go on alone.
struct RestoreDaemonMismatchTests {
    @Test(
        "a daemon of another protocol version, or one that never answers: restore exits 1, says why, restores nothing",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")),
        arguments: [
            ("c.recv(65536)\nc.send(json.dumps({'ok': True, 'version': 999}).encode())\nc.recv(65536)\n",
             "control protocol"),
            ("c.recv(65536)\nc.recv(65536)\n", "recoverydeckd did not answer within 2 s"),
        ])
    func refused(server body: String, says: String) throws {
        var cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let scores = DeleteDaemonSilentTests.scores
        #expect(try cli.run(["checkin"] + scores, at: "2026-03-10T07:00").status == 0)
        let backup = cli.directory.appendingPathComponent("backup.json").path
        #expect(try cli.run(["export", "--full", "-o", backup], at: "2026-03-10T08:00").status == 0)
        #expect(try cli.run(["delete", "--all", "--yes"]).status == 0)
        let socket = cli.directory.appendingPathComponent("control.sock").path
        let server = try FakeSocketServer(listeningAt: socket, then: body)
        defer { server.stop() }
        #expect(server.firstLine() == "LISTENING\n", "the server did not start")
        cli.environment["RECOVERYDECK_SOCKET"] = socket
        let restore = try cli.run(["restore", backup])
        #expect(restore.status == 1)
        #expect(restore.stderr.contains(says) && restore.stderr.contains("Nothing was restored."), "\(restore.stderr)")
        let restored = try Store(path: cli.databasePath).hasQuestionnaire(on: LocalDate(iso: "2026-03-10")!)
        #expect(!restored, "the check-in was restored under a daemon that was never paused")
    }
}

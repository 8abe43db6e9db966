import Foundation
import RecoveryCore
import Store
import Testing

/// `delete` asks a running daemon to stop a morning it measures before the day goes: a daemon that is there but
/// does not answer stops the delete with one sentence, instead of deleting while a morning may save into the day.
struct DeleteDaemonSilentTests {
    static let scores = ["--fatigue", "5", "--mood", "5", "--soreness", "5", "--stress", "5", "--sleep", "5"]

    @Test(
        "a daemon that takes the connection and never answers: delete exits 1, says so, deletes nothing",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func silentDaemon() throws {
        var cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        #expect(try cli.run(["checkin"] + Self.scores, at: "2026-03-10T07:00").status == 0)
        let socket = cli.directory.appendingPathComponent("control.sock").path
        // It reads the request and never answers: its second read returns only when the client hangs up.
        let server = try FakeSocketServer(listeningAt: socket, then: "c.recv(65536)\nc.recv(65536)\n")
        defer { server.stop() }
        #expect(server.firstLine() == "LISTENING\n", "the server did not start")
        cli.environment["RECOVERYDECK_SOCKET"] = socket
        let delete = try cli.run(["delete", "--day", "2026-03-10", "--yes"])
        #expect(delete.status == 1)
        #expect(
            delete.stderr.contains("Nothing was deleted: a morning recoverydeckd may be measuring could save into the deleted day")
                && delete.stderr.contains("recoverydeckd did not answer within 2 s"), "\(delete.stderr)")
        let kept = try Store(path: cli.databasePath).hasQuestionnaire(on: LocalDate(iso: "2026-03-10")!)
        #expect(kept, "the check-in was deleted")
    }
}

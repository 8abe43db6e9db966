import Foundation
@testable import Store
import Testing

/// Text another user could write (a display name or a habit tag straight into the shared database, a note)
/// reaches the terminal with its control characters escaped, so it cannot set root's clipboard (OSC 52), clear
/// the screen or reorder the line; a note a spreadsheet would run as a formula is exported as text.
struct TerminalEscapeTests {
    static let osc52 = "\u{1b}]52;c;cm0gLXJmIH4K\u{07}\u{1b}[2J\u{1b}[H"

    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 || $0.value == 0x9b || $0.value == 0x202e }
    }

    @Test("a display name with control characters in the database is not used, and `settings` says so escaped; a habit tag is escaped")
    func statusEscapes() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let checkin = try cli.run(["checkin", "--fatigue", "5", "--mood", "5", "--soreness", "5", "--stress", "5", "--sleep", "5"])
        #expect(checkin.status == 0, "\(checkin.stderr)")
        let store = try Store(path: cli.databasePath)
        try store.setSetting(.displayName, "Zach" + Self.osc52)
        try store.database.run("INSERT INTO habit_tag (day, habit) SELECT day, ?1 FROM questionnaire", [.text("beer\u{9b}2J\u{202e}")])
        let status = try cli.run(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(!Self.hasControl(status.stdout), "\(status.stdout.debugDescription)")
        #expect(status.stdout.hasPrefix("Good morning.\n"), "\(status.stdout)")
        #expect(status.stdout.contains("beer\\u009b2J\\u202e"), "\(status.stdout)")
        let settings = try cli.run(["settings"])
        #expect(!Self.hasControl(settings.stderr) && !Self.hasControl(settings.stdout))
        #expect(
            settings.stderr.contains(
                "Not used: the setting display_name \"Zach\\u001b]52;c;cm0gLXJmIH4K\\u0007\\u001b[2J\\u001b[H\" is not a name of "
                    + "1 to 40 characters without control characters, so no name applies."), "\(settings.stderr)")
        let json = try cli.run(["status", "--json"])
        #expect(!Self.hasControl(json.stdout))
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(parsed != nil, "the escaped JSON is still JSON")
    }

    @Test("a note starting with = is exported to CSV as quoted text; a negative number stays a number")
    func csvFormula() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let note = "=HYPERLINK(\"http://x\",\"y\")"
        let checkin = try cli.run([
            "checkin", "--fatigue", "5", "--mood", "5", "--soreness", "5", "--stress", "5", "--sleep", "5", "--note", note,
        ])
        #expect(checkin.status == 0, "\(checkin.stderr)")
        let csv = try cli.run(["export", "--format", "csv"])
        #expect(csv.status == 0)
        #expect(csv.stdout.contains(",\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\","), "\(csv.stdout)")
        #expect(DayTable.cell("-3") == "-3")
        #expect(DayTable.cell("@SUM(A1)") == "\"'@SUM(A1)\"")
        #expect(DayTable.cell("\tx") == "\"'\tx\"")
    }
}

/// Root's command line speaks only to a control socket served by root or the service user: a server another
/// account put at the path is told nothing, and nothing it says is printed.
struct SocketOwnerTests {
    @Test(
        "watch as root against a server run by nobody: refused before a byte is sent, with one sentence",
        .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs root"))
    func foreignServer() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let dir = cli.directory.appendingPathComponent("run").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        chmod(cli.directory.path, 0o755)
        chmod(dir, 0o777)
        let socket = dir + "/control.sock"
        // A server that answers every packet with a snapshot whose text would clear root's screen.
        let server = try FakeSocketServer(
            script: """
            import socket
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.bind('\(socket)'); s.listen(4)
            print('LISTENING', flush=True)
            c, _ = s.accept()
            got = c.recv(65536)
            print('RECEIVED' if got else 'NOTHING', flush=True)
            c.send(b'{"ok":true,"snapshot":{"event":"say","text":"\\\\u001b[2Jowned"}}')
            """,
            asUser: 65534)
        defer { server.stop() }
        #expect(server.firstLine() == "LISTENING\n", "the server did not start")
        let outcome = try cli.run(["watch", "--socket", socket])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("is served by uid 65534, not by root or the service user recoverydeck, so nothing was sent to it."),
            "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("owned"))
        let said = server.rest()
        #expect(said == "NOTHING\n", "the server was sent a request")
    }
}

import Foundation
import TestSupport
import Testing

@testable import RecoveryDeckCommands

/// Where the database is: --db, else RECOVERYDECK_DB, else the system database when writable, else
/// $XDG_DATA_HOME/recoverydeck/recoverydeck.db (default ~/.local/share).
struct DatabaseLocationTests {
    static let scores = ["--fatigue", "5", "--mood", "6", "--soreness", "4", "--stress", "5", "--sleep", "6"]
    /// The per-user database is used only where no box is installed (no /var/lib/recoverydeck).
    static let boxInstalled = access("/var/lib/recoverydeck", F_OK) == 0

    @Test("--db wins over RECOVERYDECK_DB")
    func optionWins() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let other = cli.directory.appendingPathComponent("other.db").path
        #expect(try cli.run(["--db", other, "checkin"] + Self.scores).status == 0)
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
        #expect(try cli.run(["checkin", "--db=\(other)"] + Self.scores).status == 0, "after the name, with =")
    }

    @Test(
        "with no box installed, and without --db or RECOVERYDECK_DB, the database goes to $XDG_DATA_HOME/recoverydeck, then ~/.local/share",
        .enabled(if: !boxInstalled))
    func perUserFallback() throws {
        var cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        cli.environment["RECOVERYDECK_DB"] = nil
        #expect(try cli.run(["checkin"] + Self.scores).status == 0)
        let xdg = cli.directory.appendingPathComponent("xdg/recoverydeck/recoverydeck.db").path
        #expect(FileManager.default.fileExists(atPath: xdg))
        let attributes = try FileManager.default.attributesOfItem(atPath: xdg)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let folder = try FileManager.default.attributesOfItem(
            atPath: cli.directory.appendingPathComponent("xdg/recoverydeck").path)
        #expect(folder[.posixPermissions] as? Int == 0o700)
        cli.environment["XDG_DATA_HOME"] = nil
        #expect(try cli.run(["checkin"] + Self.scores).status == 0)
        #expect(
            FileManager.default.fileExists(
                atPath: cli.directory.appendingPathComponent("home/.local/share/recoverydeck/recoverydeck.db").path))
    }
}

/// The system database (var/lib/recoverydeck/recoverydeck.db) in its place in the order, read under a root folder
/// laid out like "/" (as doctor reads its files), so it runs in a chroot or an unprivileged container too.
struct SystemDatabaseUnderRootTests {
    static func context(root: String, environment: [String: String] = [:], db: String? = nil) -> Context {
        Context(
            commandName: "checkin", environment: { environment[$0] }, databaseOption: db, clock: SystemCommandClock(),
            root: root)
    }

    @Test("a writable var/lib/recoverydeck holds the database (0600); RECOVERYDECK_DB and --db come before it")
    func systemDatabaseUnderRoot() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        let system = root.path + "/var/lib/recoverydeck/recoverydeck.db"
        let xdg = ["XDG_DATA_HOME": root.path + "/xdg"]
        #expect(
            try Self.context(root: root.path, environment: xdg).databasePath() == root.path
                + "/xdg/recoverydeck/recoverydeck.db",
            "no var/lib/recoverydeck under the root: the per-user place")
        try FileManager.default.createDirectory(
            atPath: root.path + "/var/lib/recoverydeck", withIntermediateDirectories: true)
        let context = Self.context(root: root.path, environment: xdg)
        #expect(context.systemDatabasePath == system)
        #expect(try context.databasePath() == system)
        _ = try context.store()
        #expect(try FileManager.default.attributesOfItem(atPath: system)[.posixPermissions] as? Int == 0o600)
        #expect(!FileManager.default.fileExists(atPath: root.path + "/xdg"), "the per-user place is not created")
        #expect(
            try Self.context(root: root.path, environment: xdg).databasePath() == system,
            "the file exists and is writable")
        let fromEnvironment = xdg.merging(["RECOVERYDECK_DB": root.path + "/env.db"]) { $1 }
        #expect(try Self.context(root: root.path, environment: fromEnvironment).databasePath() == root.path + "/env.db")
        #expect(
            try Self.context(root: root.path, environment: fromEnvironment, db: root.path + "/option.db").databasePath()
                == root.path + "/option.db")
    }

    @Test("the box's database is where recoverydeck.conf's `database =` puts it, as the daemon reads it")
    func databaseFromConfiguration() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        try FileManager.default.createDirectory(atPath: root.path + "/etc/recoverydeck", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root.path + "/srv/deck", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: root.path + "/var/lib/recoverydeck", withIntermediateDirectories: true)
        try "database = /srv/deck/box.db\n".write(
            toFile: root.path + "/etc/recoverydeck/recoverydeck.conf", atomically: true, encoding: .utf8)
        let context = Self.context(root: root.path, environment: ["XDG_DATA_HOME": root.path + "/xdg"])
        #expect(context.systemDatabasePath == root.path + "/srv/deck/box.db")
        #expect(try context.databasePath() == root.path + "/srv/deck/box.db", "not the daemon's database")
        #expect(context.boxDirectory == root.path + "/srv/deck")
    }

    @Test("--db or RECOVERYDECK_DB other than the box's database is said in one sentence; the same one is not")
    func otherDatabaseSaid() {
        #expect(
            Context.otherDatabaseSentence(given: "/tmp/x.db", source: "--db", box: "/var/lib/recoverydeck/recoverydeck.db")
                == "recoverydeck: using /tmp/x.db (from --db), not the box's database "
                + "/var/lib/recoverydeck/recoverydeck.db that recoverydeckd uses.")
        #expect(
            Context.otherDatabaseSentence(
                given: "/var/lib/recoverydeck/recoverydeck.db", source: "RECOVERYDECK_DB",
                box: "/var/lib/recoverydeck/recoverydeck.db") == nil)
    }

    @Test("a var/lib/recoverydeck that is a link, not a folder, is refused rather than followed or replaced")
    func boxDirectoryLink() throws {
        let root = try TemporaryRoot()
        defer { root.remove() }
        try FileManager.default.createDirectory(atPath: root.path + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root.path + "/var/lib", withIntermediateDirectories: true)
        #expect(symlink(root.path + "/elsewhere", root.path + "/var/lib/recoverydeck") == 0)
        let context = Self.context(root: root.path, environment: ["XDG_DATA_HOME": root.path + "/xdg"])
        #expect(throws: CommandError.self) { try context.databasePath() }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: root.path + "/elsewhere")) == [])
        #expect(!FileManager.default.fileExists(atPath: root.path + "/xdg"))
    }
}

/// A fresh folder under the temporary directory, removed with everything in it.
struct TemporaryRoot {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("recoverydeck-root-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Whether this process may make a private mount namespace (root, or a user namespace): not in a chroot
/// without privileges or most unprivileged containers.
let privateMountNamespaceAvailable: Bool = {
    let words = (getuid() == 0 ? [] : ["-r"]) + ["-m", "--propagation", "private", "true"]
    guard let child = try? Child("/usr/bin/unshare", words, stderr: .null) else { return false }
    return (try? child.wait()) == .exit(0)
}()

/// Runs `script` (sh) in a private mount namespace with a tmpfs over /var/lib, so the host's /var/lib is never
/// touched: root here as in CI, a user namespace otherwise. `$1` is `recoverydeck-fixture` (the scripts state the
/// time with `--now`), then `arguments`. Returns the exit status and what the script printed on standard output.
func runWithPrivateVarLib(_ script: String, arguments: [String], environment: [String: String]) throws -> (
    Int32, String
) {
    var words = ["-m", "--propagation", "private", "sh", "-c", "set -u\n" + script, "sh"]
    if getuid() != 0 { words.insert("-r", at: 0) }
    words += [try RecoveryDeckProcess.fixture.path] + arguments
    let child = try Child("/usr/bin/unshare", words, environment: environment, stdin: .null, stdout: .pipe)
    let transcript = try child.readOutputToEnd()
    return (try child.terminationStatus, transcript)
}

/// The box's database (/var/lib/recoverydeck/recoverydeck.db) in its place in the order, on the real path with a
/// real read-only file system, in a private mount namespace (`runWithPrivateVarLib`). Where namespaces are not
/// allowed, SystemDatabaseUnderRootTests covers the order.
@Suite(.enabled(if: privateMountNamespaceAvailable, "needs a private mount namespace (unshare -m)"))
struct SystemDatabaseLocationTests {
    static let checkin = ["--now", "2026-03-10T07:00", "checkin"] + DatabaseLocationTests.scores

    @Test(
        "an installed box's database is used, RECOVERYDECK_DB beats it, a read-only one fails instead of giving way, and without a box the personal one is said")
    func systemDatabaseInItsPlace() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let xdg = cli.directory.appendingPathComponent("xdg").path
        let fromEnvironment = cli.directory.appendingPathComponent("env.db").path
        let quotedCheckin = Self.checkin.joined(separator: " ")
        let scores = DatabaseLocationTests.scores.joined(separator: " ")
        // Each step prints what a person would check; the expected transcript is below.
        let script = """
            mount -t tmpfs -o mode=0755 tmpfs /var/lib || exit 90
            unset RECOVERYDECK_DB
            "$1" \(quotedCheckin) 2>"$2.said"; echo "no box: exit $?"
            grep -c 'no box is installed here' "$2.said"
            "$1" \(quotedCheckin) 2>"$2.said"; echo "no box again: exit $?, said $(grep -c 'no box is' "$2.said") times"
            mkdir -m 0755 /var/lib/recoverydeck || exit 92
            "$1" \(quotedCheckin) 2>/dev/null; echo "box: exit $?"
            stat -c 'box database mode %a' /var/lib/recoverydeck/recoverydeck.db
            RECOVERYDECK_DB="$3" "$1" \(quotedCheckin) 2>/dev/null; echo "environment: exit $?"
            [ -e "$3" ] && echo "environment database created"
            RECOVERYDECK_DB="$3" "$1" --now 2026-03-10T07:00 --db "$3.option" checkin \(scores) 2>/dev/null; echo "option: exit $?"
            [ -e "$3.option" ] && echo "option database created"
            echo "box database days: $("$1" export --format csv | tail -n +2 | wc -l)"
            rm -f "$2/recoverydeck/recoverydeck.db"*
            mount -o remount,ro /var/lib || exit 91
            "$1" \(quotedCheckin) 2>/dev/null; echo "read-only: exit $?"
            [ -e "$2/recoverydeck/recoverydeck.db" ] && echo "XDG database created"
            true
            """
        var environment = cli.environment
        environment["RECOVERYDECK_DB"] = fromEnvironment + ".unused"
        let (status, transcript) = try runWithPrivateVarLib(
            script, arguments: [xdg, fromEnvironment], environment: environment)
        #expect(status == 0, "unshare or mount failed: \(transcript)")
        #expect(
            transcript == """
                no box: exit 0
                1
                no box again: exit 0, said 0 times
                box: exit 0
                box database mode 600
                environment: exit 0
                environment database created
                option: exit 0
                option database created
                box database days: 1
                read-only: exit 1

                """)
        #expect(!FileManager.default.fileExists(atPath: fromEnvironment + ".unused"))
    }
}

/// A path that is not a RecoveryDeck database is refused in one sentence and left exactly as it was.
struct ForeignFileTests {
    @Test("--db naming a file that is not a database: exit 1, one sentence, the file's bytes and mode unchanged")
    func notADatabase() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let notes = cli.directory.appendingPathComponent("notes.txt")
        let text = String(repeating: "my private notes, not a database\n", count: 40)
        try text.write(to: notes, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: notes.path)
        let outcome = try cli.run(["--db", notes.path, "status"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == "recoverydeck status: cannot use the database \(notes.path): file is not a database.\n")
        #expect(try String(contentsOf: notes, encoding: .utf8) == text)
        #expect(try FileManager.default.attributesOfItem(atPath: notes.path)[.posixPermissions] as? Int == 0o644)
        let missingFolder = cli.directory.appendingPathComponent("no/such/folder.db").path
        let missing = try cli.run(["--db", missingFolder, "status"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr
                == "recoverydeck status: cannot use the database \(missingFolder): No such file or directory.\n")
    }

    @Test("root creating the database in the service's directory creates it as that directory's owner")
    func rootCreatesForTheDirectoryOwner() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let state = cli.directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let nobody: UInt32 = 65534
        let root = getuid() == 0
        if root { #expect(chown(state.path, nobody, nobody) == 0) }
        let db = state.appendingPathComponent("recoverydeck.db").path
        let outcome = try cli.run(
            [
                "--db", db, "checkin", "--fatigue", "4", "--mood", "4", "--soreness", "4", "--stress", "4", "--sleep",
                "4",
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var info = stat()
        #expect(stat(db, &info) == 0)
        // As root the file belongs to the directory's owner (the daemon's user); otherwise to whoever ran it.
        #expect(info.st_uid == (root ? nobody : getuid()))
        #expect(info.st_mode & 0o777 == 0o600)
    }
}

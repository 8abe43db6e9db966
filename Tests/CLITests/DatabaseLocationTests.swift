import Foundation
import Testing

/// Where the database is: --db, else RECOVERYDECK_DB, else the system database when writable, else
/// $XDG_DATA_HOME/recoverydeck/recoverydeck.db (default ~/.local/share).
struct DatabaseLocationTests {
    static let scores = ["--fatigue", "5", "--mood", "6", "--soreness", "4", "--stress", "5", "--sleep", "6"]
    /// The per-user fallback can only be observed where the system database is not writable.
    static let systemDatabaseWritable = access("/var/lib/recoverydeck", W_OK) == 0

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
        "without --db or RECOVERYDECK_DB the database goes to $XDG_DATA_HOME/recoverydeck, then ~/.local/share",
        .enabled(if: !systemDatabaseWritable))
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

    @Test("root creating the database in the service's directory hands it to that directory's owner")
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
            ["--db", db, "checkin", "--fatigue", "4", "--mood", "4", "--soreness", "4", "--stress", "4", "--sleep", "4"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var info = stat()
        #expect(stat(db, &info) == 0)
        // As root the file belongs to the directory's owner (the daemon's user); otherwise to whoever ran it.
        #expect(info.st_uid == (root ? nobody : getuid()))
        #expect(info.st_mode & 0o777 == 0o600)
    }
}

import Foundation
import TestSupport
import Testing

/// `delete --all` leaves none of the person's data in any file the box writes, also while another program
/// holds a read transaction open on the database.
struct DeleteLeavesNothingTests {
    static let marker = "unique-marker-7f3c9a"

    /// The files beside the database that could hold the marker: the file, its log and index, the spool.
    static func placesHolding(_ marker: String, database: String) -> [String] {
        var places = [database, database + "-wal", database + "-shm"]
        let spool = database + ".spool"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? [] {
            places.append(spool + "/" + name)
        }
        let bytes = Array(marker.utf8)
        return places.filter { path in
            guard let data = FileManager.default.contents(atPath: path) else { return false }
            return [UInt8](data).withUnsafeBufferPointer { all in
                all.count >= bytes.count
                    && (0...(all.count - bytes.count)).contains { i in bytes.indices.allSatisfy { all[i + $0] == bytes[$0] } }
            }
        }
    }

    @Test("delete --all beside a reader holding a read transaction until delete waits for it: exit 0, and no file holds the note afterwards")
    func deleteAllBesideAReader() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let db = cli.databasePath
        let scores = DatabaseLocationTests.scores
        for day in 1...5 {
            let now = String(format: "2026-03-%02dT07:00", day)
            let outcome = try cli.run(["checkin"] + scores + ["--note", "\(Self.marker) day \(day)"], at: now)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        // A record waiting in the spool, and a temporary a crash left half-written, both holding the marker.
        let spool = db + ".spool"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        try "{\"note\": \"\(Self.marker)\"}".write(
            toFile: spool + "/.2026-03-05-morning-1-1.json.tmp", atomically: false, encoding: .utf8)
        #expect(!Self.placesHolding(Self.marker, database: db).isEmpty, "the marker is on disk before the delete")

        // Another program reads: a read transaction held open until delete says it is waiting for it, then ended.
        let reader = try Child(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3, sys\n"
                    + "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                    + "c.execute('BEGIN'); c.execute('SELECT count(*) FROM questionnaire').fetchall()\n"
                    + "print('reading', flush=True); sys.stdin.read(); c.execute('COMMIT')",
                db,
            ], stdin: .pipe, stdout: .pipe)
        var released = false
        defer {
            if !released {
                try? reader.input!.close()
                _ = try? reader.wait()
            }
        }
        #expect(reader.output!.availableData.starts(with: Array("reading".utf8)))

        let delete = try Child(
            try RecoveryDeckProcess.executable.path, ["delete", "--all", "--yes"], environment: cli.environment,
            directory: cli.directory.path, stdin: .null, stdout: .null, stderr: .pipe)
        // Reads delete's messages as they come; the reader ends once delete says it waits for it (or delete ends).
        var stderr = Data()
        while true {
            let chunk = delete.errors!.availableData
            stderr.append(chunk)
            if !released, chunk.isEmpty || String(decoding: stderr, as: UTF8.self).contains("waiting up to") {
                try reader.input!.close()
                try reader.wait()
                released = true
            }
            if chunk.isEmpty { break }
        }
        let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n")
        #expect(try delete.terminationStatus == 0, "\(lines)")
        #expect(lines.first?.hasPrefix("Another program is reading the database; waiting") == true, "\(lines)")
        // Scrubbed while delete ran, not later by whichever program closes the database last.
        #expect(lines.last?.hasPrefix("Deleted all data; the database file") == true, "\(lines)")
        #expect(Self.placesHolding(Self.marker, database: db) == [])
        #expect(try cli.run(["export", "--format", "csv"]).stdout.split(separator: "\n").count <= 1)
    }
}

/// A replaced check-in leaves no copy of its old note behind, even while another connection keeps the
/// database's log alive (the daemon always has it open).
struct ReplacedNoteTests {
    @Test("checkin again the same day replaces the note; the old note is in neither the file nor its -wal")
    func replacedNoteIsGone() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        let db = cli.databasePath
        let scores = DatabaseLocationTests.scores
        let old = "first-note-e41d"
        #expect(try cli.run(["checkin"] + scores + ["--note", old], at: "2026-03-10T07:00").status == 0)
        // Another connection holds the log open (not a read transaction), as the daemon does.
        let holder = try Child(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3, sys, time\nc = sqlite3.connect(sys.argv[1])\nc.execute('SELECT count(*) FROM questionnaire').fetchall()\n"
                    + "print('open', flush=True); sys.stdin.read()",
                db,
            ], stdin: .pipe, stdout: .pipe)
        defer {
            try? holder.input!.close()
            _ = try? holder.wait()
        }
        #expect(holder.output!.availableData.starts(with: Array("open".utf8)))
        let replaced = try cli.run(["checkin"] + scores + ["--note", "second-note"], at: "2026-03-10T07:10")
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(DeleteLeavesNothingTests.placesHolding(old, database: db) == [])
        #expect(DeleteLeavesNothingTests.placesHolding("second-note", database: db) != [])
    }
}

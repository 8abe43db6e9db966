import Foundation
import Testing

/// Bad input gets one clear sentence, a non-zero exit, and changes nothing: the database file is
/// byte-identical afterwards (DESIGN §7; issue "Bad input … leaves the database byte-identical").
struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let status: Int32
        /// A part of the sentence the person must see.
        let says: String
        /// The local time the command runs at (`recoverydeck-fixture --now`).
        var now = BadInputTests.now
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let now = "2026-03-10T07:00"
    static let scores = ["--fatigue", "5", "--mood", "6", "--soreness", "4", "--stress", "5", "--sleep", "6"]

    static func checkin(replacing option: String, with value: String) -> [String] {
        var args = ["checkin"] + scores
        if let i = args.firstIndex(of: option) { args[i + 1] = value } else { args += [option, value] }
        return args
    }

    static let cases: [Case] = [
        Case(
            arguments: checkin(replacing: "--fatigue", with: "0"), status: 64,
            says: "--fatigue must be a whole number from 1 to 7, not '0'."),
        Case(
            arguments: checkin(replacing: "--mood", with: "8"), status: 64,
            says: "--mood must be a whole number from 1 to 7, not '8'."),
        Case(
            arguments: checkin(replacing: "--sleep", with: "abc"), status: 64,
            says: "--sleep must be a whole number from 1 to 7, not 'abc'."),
        Case(
            arguments: checkin(replacing: "--stress", with: "4.5"), status: 64,
            says: "--stress must be a whole number"),
        Case(
            arguments: checkin(replacing: "--habit", with: "beer"), status: 64,
            says: "unknown habit 'beer'; the configured habits are alcohol,"),
        Case(arguments: checkin(replacing: "--habit", with: "Late Night"), status: 64, says: "is not a habit name"),
        Case(
            arguments: checkin(replacing: "--caffeine-time", with: "25:00"), status: 64,
            says: "--caffeine-time must be a 24-hour time written HH:MM"),
        Case(
            arguments: checkin(replacing: "--last-meal", with: "7pm"), status: 64,
            says: "--last-meal must be a 24-hour time"),
        Case(
            arguments: checkin(replacing: "--caffeine-mg", with: "-5"), status: 64,
            says: "--caffeine-mg must be a whole number from 0 to 2000"),
        Case(
            arguments: ["checkin", "--fatigue", "5", "--mood", "6"], status: 64,
            says: "missing --soreness, --stress, --sleep"),
        Case(
            arguments: ["checkin", "--fatigue", "5", "--fatigue", "6"], status: 64, says: "--fatigue was given twice."),
        Case(arguments: ["checkin", "--fatigue"], status: 64, says: "--fatigue needs a value (N)."),
        Case(arguments: ["checkin", "--bogus"], status: 64, says: "unknown option '--bogus'."),
        Case(
            arguments: ["delete", "--day", "2026-02-30", "--yes"], status: 64,
            says: "--day must be a date written YYYY-MM-DD, not '2026-02-30'."),
        Case(
            arguments: ["delete", "--day", "10/03/2026", "--yes"], status: 64,
            says: "--day must be a date written YYYY-MM-DD"),
        Case(
            arguments: ["delete", "--all"], status: 64, says: "deleting needs --yes to confirm; nothing was deleted."),
        Case(arguments: ["delete", "--day", "2026-03-09"], status: 64, says: "deleting needs --yes to confirm"),
        Case(
            arguments: ["delete", "--all", "--day", "2026-03-09", "--yes"], status: 64,
            says: "give either --all or --day, not both."),
        Case(arguments: ["delete", "--yes"], status: 64, says: "say what to delete"),
        Case(
            arguments: ["delete", "--day", "2025-01-01", "--yes"], status: 1,
            says: "nothing is stored for 2025-01-01; nothing was deleted."),
        Case(
            arguments: ["history", "--days", "0"], status: 64,
            says: "--days must be a whole number from 1 to 3650, not '0'."),
        Case(arguments: ["history", "--days", "many"], status: 64, says: "--days must be a whole number"),
        Case(arguments: ["status", "extra"], status: 64, says: "unexpected argument 'extra'."),
        Case(arguments: ["rr", "analyze"], status: 64, says: "missing FILE."),
        Case(
            arguments: ["rr", "analyze", "missing.txt"], status: 1,
            says: "cannot read missing.txt: No such file or directory."),
        Case(arguments: ["rr", "analyze", "empty.txt"], status: 1, says: "empty.txt holds no RR intervals."),
        Case(arguments: ["rr", "analyze", "comments.txt"], status: 1, says: "comments.txt holds no RR intervals."),
        Case(
            arguments: ["rr", "analyze", "letters.txt"], status: 1,
            says: "letters.txt line 3: 'abc' is not an RR interval in milliseconds."),
        Case(
            arguments: ["rr", "analyze", "negative.txt"], status: 1,
            says: "'-800' is not an RR interval in milliseconds."),
        Case(
            arguments: ["rr", "analyze", "no-rr-column.csv"], status: 1,
            says: "expected RR in ms or a header with an rr column"),
        Case(arguments: ["rr", "analyze", "short-row.csv"], status: 1, says: "short-row.csv line 3 has no rr value."),
        Case(arguments: ["rr", "analyze", "binary.bin"], status: 1, says: "binary.bin line 1 is not UTF-8 text."),
        Case(
            arguments: ["rr", "analyze", "good.txt", "--window", "evening"], status: 64,
            says: "--window must be one of whole, morning, not 'evening'."),
        Case(arguments: ["rr"], status: 64, says: "missing subcommand (analyze)."),
        Case(arguments: ["rr", "analyse"], status: 64, says: "unknown subcommand 'analyse'; expected one of analyze."),
        Case(
            arguments: ["export", "--format", "xml"], status: 64,
            says: "--format must be one of json, csv, intervals, goldencheetah, not 'xml'."),
        Case(arguments: ["export", "--format", "csv", "--full"], status: 64, says: "--full applies to JSON only"),
        Case(
            arguments: ["export", "--rr", "2026-03-01", "--format", "csv"], status: 64,
            says: "--rr writes one morning's RR intervals; it takes neither --format nor --full."),
        Case(
            arguments: ["export", "--rr", "2020-01-01"], status: 1,
            says: "No morning is stored for 2020-01-01; nothing was written."),
        Case(
            arguments: ["export", "-o", "no-such-dir/out.json"], status: 1,
            says: "cannot write no-such-dir/out.json: No such file or directory."),
        Case(arguments: ["demo", "--seed", "-1"], status: 64, says: "--seed must be a whole number"),
        Case(arguments: ["settings", "--habits", "Sauna"], status: 64, says: "'Sauna' is not a habit name"),
        Case(
            arguments: ["settings", "--habits", "alcohol,alcohol"], status: 64, says: "--habits names a habit twice."),
        Case(arguments: ["settings", "--habits", ""], status: 64, says: "'' is not a habit name"),
        Case(arguments: ["settings", "--reminder", "25:00"], status: 64, says: "--reminder must be a 24-hour time"),
        Case(arguments: ["settings", "--reminder", "10:00"], status: 64, says: "is not before the reminder window's end, 10:00"),
        Case(
            arguments: ["settings", "--display-name", "a\u{07}b"], status: 64,
            says: "--display-name cannot hold control characters."),
        Case(arguments: ["statuss"], status: 64, says: "unknown command 'statuss'."),
        // Help asked of a command that does not exist is still a usage error, not the general page.
        Case(arguments: ["UNKNOWN", "--help"], status: 64, says: "unknown command 'UNKNOWN'."),
        Case(arguments: ["statuss", "-h"], status: 64, says: "unknown command 'statuss'."),
        Case(
            arguments: ["rr", "analyse", "--help"], status: 64,
            says: "unknown subcommand 'analyse'; expected one of analyze."),
        Case(arguments: [], status: 64, says: "missing command."),
        Case(
            arguments: ["status"], status: 64, says: "--now must be a local time written YYYY-MM-DDTHH:MM",
            now: "yesterday"),
        Case(arguments: ["--db", "", "status"], status: 64, says: "--db needs a file path."),
    ]

    /// A database with two checked-in days, and the input files the cases read.
    static func prepared() throws -> RecoveryDeckProcess {
        let cli = try RecoveryDeckProcess()
        for day in ["2026-03-09", "2026-03-10"] {
            let outcome = try cli.run(["checkin"] + scores + ["--note", "baseline day"], at: "\(day)T07:00")
            #expect(outcome.status == 0, "setup check-in failed: \(outcome.stderr)")
        }
        let files: [String: String] = [
            "empty.txt": "",
            "comments.txt": "# nothing but comments\n\n# here\n",
            "letters.txt": "1000\n1010\nabc\n990\n",
            "negative.txt": "1000\n-800\n",
            "no-rr-column.csv": "time,hr\n1,60\n",
            "short-row.csv": "time,rr\n1,1000\n2\n",
            "good.txt": "1000\n1010\n",
        ]
        for (name, text) in files {
            try text.write(to: cli.directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try Data([0xff, 0xfe, 0x00, 0x81]).write(to: cli.directory.appendingPathComponent("binary.bin"))
        return cli
    }

    @Test(
        "each bad input prints one clear sentence, exits non-zero and leaves the database byte-identical",
        arguments: cases)
    func badInput(_ c: Case) throws {
        let cli = try Self.prepared()
        defer { cli.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.databasePath))
        let outcome = try cli.run(c.arguments, at: c.now)
        #expect(outcome.status == c.status, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "bad input wrote data: \(outcome.stdout)")
        #expect(outcome.stderr.contains(c.says), "stderr: \(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == (c.status == 64 ? 2 : 1), "one sentence (and a usage hint): \(outcome.stderr)")
        #expect(lines.first?.hasPrefix("recoverydeck") == true)
        #expect(lines.first?.hasSuffix(".") == true)
        if c.status == 64 { #expect(lines.last?.hasPrefix("Try 'recoverydeck") == true) }
        let after = try Data(contentsOf: URL(fileURLWithPath: cli.databasePath))
        #expect(after == before, "the database changed")
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath + "-wal"), "a log was left behind")
    }

    @Test("bad input before any database exists creates none")
    func noDatabaseCreated() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        for (args, status) in [
            (Self.checkin(replacing: "--fatigue", with: "0"), 64), (["delete", "--all"], 64),
            (["history", "--days", "0"], 64), (Self.checkin(replacing: "--habit", with: "beer"), 64),
            (["delete", "--day", "2026-03-01", "--yes"], 1), (["delete", "--all", "--yes"], 1),
        ] {
            let outcome = try cli.run(args)
            #expect(outcome.status == Int32(status), "\(args): \(outcome.stderr)")
        }
        let refused = try cli.run(["delete", "--all", "--yes"])
        #expect(
            refused.stderr == "recoverydeck delete: there is no database at \(cli.databasePath); nothing was deleted.\n")
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
    }
}

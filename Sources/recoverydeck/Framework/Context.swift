import BoxConfiguration
import HeartRateProtocol
import LocalClock
import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// What a running command may use: the global options, the environment, the clock, the terminal and
/// the database. Commands read "now" only from here, so the clock the program was given is every command's.
final class Context {
    let commandName: String
    /// Reads an environment variable (a function so the program passes `getenv` and nothing is copied).
    let environment: (String) -> String?
    private let databaseOption: String?
    /// The clock the program was given: the system's in `recoverydeck`.
    let clock: any CommandClock
    /// What the Bluetooth commands load for a strap before they connect (mgmt Load Connection Parameters):
    /// `LEConnectionParameters.strap` in `recoverydeck`; nil loads nothing.
    let strapParameters: LEConnectionParameters?
    private var openedStore: Store?
    /// Where the system's files are: "/" on the box; a folder laid out alike in tests (as doctor's
    /// `SystemFacts.root`), so the database order is tested without touching the host's /var/lib.
    let root: String

    init(
        commandName: String, environment: @escaping (String) -> String?, databaseOption: String?,
        clock: any CommandClock, strapParameters: LEConnectionParameters? = .strap, root: String = "/"
    ) {
        self.commandName = commandName
        self.environment = environment
        self.databaseOption = databaseOption
        self.clock = clock
        self.strapParameters = strapParameters
        self.root = root.hasSuffix("/") ? root : root + "/"
    }

    // MARK: Clock

    /// The local time now, by the program's clock, in the system time zone (TZ, /etc/localtime).
    var now: LocalTime { clock.now() }

    /// Seconds since the Unix epoch matching `now`.
    var nowEpochSeconds: Int64 { clock.epochSeconds() }

    /// The person's local calendar day: the unit of the gate and of every day's record (spec §6.3).
    var today: LocalDate { now.date }

    // MARK: Database

    /// The box's configuration file (under `root`), the one the daemon reads.
    var configurationPath: String { root + String(DaemonConfiguration.defaultPath.dropFirst()) }

    /// The database the box's daemon uses (under `root`): `database =` in recoverydeck.conf, read with the
    /// daemon's own parser, so the command line, doctor and the daemon name one file. A missing file or key means
    /// the daemon's default; a file the daemon would refuse is said, and the default used.
    private(set) lazy var systemDatabasePath: String = {
        let configured: String
        do { configured = try DaemonConfiguration.load(path: configurationPath, required: false).database } catch {
            say("recoverydeck: \(error) The box's default database is used.")
            configured = DaemonConfiguration().database
        }
        return configured.hasPrefix("/") ? root + String(configured.dropFirst()) : root + configured
    }()

    /// The installed box's state directory (under `root`): the folder of its database. On the packaged box the
    /// daemon's user owns it, and it is shared, 2770, with the group that may use the box.
    var boxDirectory: String {
        let path = systemDatabasePath
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// True once the sentence about a database other than the box's was said.
    private var saidOtherDatabase = false

    /// The sentence for a database given by hand (`--db`, `$RECOVERYDECK_DB`) that is not the box's, while a box
    /// is installed: a command would read and write where the daemon never looks. Nil when they are the same.
    static func otherDatabaseSentence(given: String, source: String, box: String) -> String? {
        guard given != box else { return nil }
        return "recoverydeck: using \(given) (from \(source)), not the box's database \(box) that recoverydeckd uses."
    }

    /// Which database a command uses.
    enum DatabaseLocation: Equatable {
        /// `--db PATH` or `$RECOVERYDECK_DB`: exactly that file.
        case given(String)
        /// The installed box's own database, which the daemon uses.
        case box(String)
        /// No box is installed here (no /var/lib/recoverydeck): the person's own database.
        case personal(String)

        var path: String {
            switch self {
            case .given(let path), .box(let path), .personal(let path): path
            }
        }
    }

    /// Where the database is: `--db PATH`, else `$RECOVERYDECK_DB`, else the box's database when a box is
    /// installed (its state directory exists) — refused with a sentence naming the group when this user
    /// may not open it, never swapped for another file — else, with no box installed,
    /// `$XDG_DATA_HOME/recoverydeck/recoverydeck.db` (XDG default `~/.local/share`).
    /// Root uses the box's database as the directory's owner (`ProcessIdentity.actAs`), so a link planted in
    /// that directory reaches nothing the owner could not reach already.
    func databaseLocation() throws(CommandError) -> DatabaseLocation {
        var given = databaseOption
        if given == nil, let fromEnvironment = environment("RECOVERYDECK_DB"), !fromEnvironment.isEmpty {
            given = fromEnvironment
        }
        var info = stat()
        if let given {
            if !saidOtherDatabase, lstat(boxDirectory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
                let sentence = Context.otherDatabaseSentence(
                    given: given, source: databaseOption != nil ? "--db" : "RECOVERYDECK_DB", box: systemDatabasePath)
            {
                saidOtherDatabase = true
                say(sentence)
            }
            try Context.actAsOwner(ofDirectoryOf: given)
            return .given(given)
        }
        if lstat(boxDirectory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .failure("\(boxDirectory) is not a directory (a link or a file is there), so the box's data cannot be trusted; nothing was done.")
            }
            try Context.actAsOwner(of: boxDirectory, info)
            guard faccessat(AT_FDCWD, boxDirectory, R_OK | W_OK | X_OK, AT_EACCESS) == 0 else {
                if errno == EACCES || errno == EPERM {
                    throw .failure(
                        Context.notAdmitted(directory: boxDirectory, group: info.st_gid, environment: environment))
                }
                throw .failure("cannot use the box's data in \(boxDirectory): \(Errno.current.message).")
            }
            return .box(systemDatabasePath)
        }
        var dataHome = environment("XDG_DATA_HOME") ?? ""
        // XDG Base Directory: a relative path is invalid and must be ignored.
        if !dataHome.hasPrefix("/") {
            guard let home = environment("HOME"), home.hasPrefix("/") else {
                throw .failure("there is no place for the database (HOME is not set); give --db PATH.")
            }
            dataHome = home + "/.local/share"
        }
        return .personal(dataHome + "/recoverydeck/recoverydeck.db")
    }

    /// Root acts as the owner of a database's folder when someone else owns it (the daemon's user, a person's
    /// home): whatever links that user planted there reach only what the user could reach.
    private static func actAsOwner(ofDirectoryOf path: String) throws(CommandError) {
        guard geteuid() == 0 else { return }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var info = stat()
        guard stat(directory, &info) == 0 else { return }
        try actAsOwner(of: directory, info)
    }

    private static func actAsOwner(of directory: String, _ info: stat) throws(CommandError) {
        guard geteuid() == 0, info.st_uid != 0 else { return }
        do { try ProcessIdentity.actAs(uid: info.st_uid, gid: info.st_gid) } catch {
            throw .failure("cannot act as the owner of \(directory): \(error).")
        }
    }

    /// The database's path (see `databaseLocation`).
    func databasePath() throws(CommandError) -> String { try databaseLocation().path }

    /// The sentence for a person whose process may not open the box's directory.
    static func notAdmitted(directory: String, group gid: gid_t, environment: (String) -> String?) -> String {
        let group = ServiceGroup.name(of: gid) ?? "gid \(gid)"
        let user = environment("USER") ?? environment("LOGNAME") ?? "YOU"
        return "the box's data in \(directory) is open only to root and the \(group) group, and this process is "
            + "not in it: ask root for `sudo adduser \(user) \(group)` and log in again, or run this with sudo."
    }

    /// Opens the database (creating it, and for the per-user default its directory, mode 0700).
    /// Commands open it only after their arguments are valid, so bad input never creates a file.
    func store() throws -> Store {
        if let openedStore { return openedStore }
        let location = try databaseLocation()
        let path = location.path
        let existed = access(path, F_OK) == 0
        if case .personal = location { try Context.makeDirectories(for: path) }
        do {
            let store = try Store(path: path)
            openedStore = store
            if case .personal = location, !existed {
                say(
                    "recoverydeck: no box is installed here (no \(boxDirectory)), so this is your own database: "
                        + "\(path).")
            }
            return store
        } catch {
            throw CommandError.failure("cannot use the database \(path): \(error.message).")
        }
    }

    /// The database when its file exists, else nil, creating nothing: for commands that only read, or that may
    /// still refuse, so a refusal on a box with no data leaves no empty database behind.
    /// A path given by hand (`--db`, `RECOVERYDECK_DB`) whose folder is missing is more likely a typing mistake than a
    /// box with no data yet: opening it names the path and the reason instead.
    func existingStore() throws -> Store? {
        if openedStore != nil { return try store() }
        let location = try databaseLocation()
        let path = location.path
        var info = stat()
        if lstat(path, &info) == 0 { return try store() }
        if case .given = location, let slash = path.lastIndex(of: "/"), slash > path.startIndex,
            access(String(path[..<slash]), F_OK) != 0
        {
            return try store()
        }
        return nil
    }

    private static func makeDirectories(for file: String) throws(CommandError) {
        var prefix = ""
        for part in file.split(separator: "/").dropLast() {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw .failure("cannot create the directory \(prefix): \(Errno.current.message).")
            }
        }
    }

    // MARK: Terminal

    // Every path to the terminal escapes control characters (`TerminalText`): what is printed carries names,
    // notes and tags from the database, the socket and the radio, which another user may have written.

    /// Writes `text` and a newline to standard output (data).
    func out(_ text: String) { Context.write(TerminalText.escaped(text) + "\n", to: 1) }

    /// Writes `text` to standard output, escaped as `out` does (data that ends with its own newline).
    func outRaw(_ text: String) { Context.write(TerminalText.escaped(text), to: 1) }

    /// Returns to the start of the line and clears it: the one control sequence the program writes itself.
    func clearLine() { Context.write("\r\u{1B}[K", to: 1) }

    /// Writes `text` and a newline to standard error (messages for the person).
    func say(_ text: String) { Context.write(TerminalText.escaped(text) + "\n", to: 2) }

    /// True when standard input is a terminal, so missing answers may be asked for.
    var inputIsTerminal: Bool { Context.standardInputIsTerminal }

    static var standardInputIsTerminal: Bool { isatty(0) == 1 }

    /// Asks on standard error and reads one line from standard input; nil at end of input.
    func ask(_ question: String) -> String? {
        Context.write(TerminalText.escaped(question), to: 2)
        return readLine(strippingNewline: true)
    }

    /// A reader of the data that went away (`watch --json | head -1`) ends the command with the status the
    /// default SIGPIPE gives, also where SIGPIPE is ignored (a systemd service and what it starts, some
    /// shells), so `watch` does not follow a session for nobody. Messages on standard error are best effort.
    static func write(_ text: String, to fd: Int32) {
        do { try FileDescriptor(rawValue: fd).writeAll(Array(text.utf8)) } catch {
            if fd == 1, error == Errno(rawValue: EPIPE) { exit(128 + SIGPIPE) }
        }
    }
}

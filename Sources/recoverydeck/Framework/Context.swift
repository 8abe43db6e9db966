import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// What a running command may use: the global options, the environment, the clock, the terminal and
/// the database. Commands read "now" only from here, so `--now` moves every command's clock at once.
final class Context {
    let commandName: String
    /// Reads an environment variable (a function so the program passes `getenv` and nothing is copied).
    let environment: (String) -> String?
    private let databaseOption: String?
    private let nowOption: LocalTime?
    private var openedStore: Store?
    /// Where the system's files are: "/" on the box; a folder laid out alike in tests (as doctor's
    /// `SystemFacts.root`), so the database order is tested without touching the host's /var/lib.
    let root: String

    init(
        commandName: String, environment: @escaping (String) -> String?, databaseOption: String?, nowOption: LocalTime?,
        root: String = "/"
    ) {
        self.commandName = commandName
        self.environment = environment
        self.databaseOption = databaseOption
        self.nowOption = nowOption
        self.root = root.hasSuffix("/") ? root : root + "/"
    }

    // MARK: Clock

    /// The local time now: the system clock in the system time zone (TZ, /etc/localtime), or `--now`.
    var now: LocalTime { nowOption ?? LocalTime.now() }

    /// True when `--now` stated the time (the system clock is not read).
    var hasStatedNow: Bool { nowOption != nil }

    /// Seconds since the Unix epoch matching `now`.
    var nowEpochSeconds: Int64 {
        guard let nowOption else { return SystemClock.epochSeconds() }
        return LocalTime.epochSeconds(of: nowOption.date, at: nowOption.minuteOfDay) + Int64(nowOption.second)
    }

    /// The person's local calendar day: the unit of the gate and of every day's record (spec §6.3).
    var today: LocalDate { now.date }

    // MARK: Database

    /// The system-wide database the packaged daemon uses (under `root`).
    var systemDatabasePath: String { root + "var/lib/recoverydeck/recoverydeck.db" }

    /// Where the database is: `--db PATH`, else `$RECOVERYDECK_DB`, else the system database when this
    /// user may write it (the file, or its directory when the file does not exist yet), else
    /// `$XDG_DATA_HOME/recoverydeck/recoverydeck.db` (XDG default `~/.local/share`).
    func databasePath() throws(CommandError) -> String {
        if let databaseOption { return databaseOption }
        if let fromEnvironment = environment("RECOVERYDECK_DB"), !fromEnvironment.isEmpty { return fromEnvironment }
        let system = systemDatabasePath
        if access(system, W_OK) == 0 { return system }
        if access(system, F_OK) != 0, access(root + "var/lib/recoverydeck", W_OK | X_OK) == 0 { return system }
        var dataHome = environment("XDG_DATA_HOME") ?? ""
        // XDG Base Directory: a relative path is invalid and must be ignored.
        if !dataHome.hasPrefix("/") {
            guard let home = environment("HOME"), home.hasPrefix("/") else {
                throw .failure("there is no place for the database (HOME is not set); give --db PATH.")
            }
            dataHome = home + "/.local/share"
        }
        return dataHome + "/recoverydeck/recoverydeck.db"
    }

    /// Opens the database (creating it, and for the per-user default its directory, mode 0700).
    /// Commands open it only after their arguments are valid, so bad input never creates a file.
    func store() throws -> Store {
        if let openedStore { return openedStore }
        let path = try databasePath()
        if databaseOption == nil, environment("RECOVERYDECK_DB")?.isEmpty ?? true, path != systemDatabasePath {
            try Context.makeDirectories(for: path)
        }
        do {
            let existed = access(path, F_OK) == 0
            let store = try Store(path: path)
            if !existed { Context.giveToDirectoryOwner(path) }
            openedStore = store
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
        let path = try databasePath()
        if access(path, F_OK) == 0 { return try store() }
        let givenByHand = databaseOption != nil || !(environment("RECOVERYDECK_DB") ?? "").isEmpty
        if givenByHand, let slash = path.lastIndex(of: "/"), slash > path.startIndex,
            access(String(path[..<slash]), F_OK) != 0
        {
            return try store()
        }
        return nil
    }

    /// Root creating the database in someone else's directory (the CLI run with sudo before the daemon ever
    /// started, in /var/lib/recoverydeck owned by the service user) hands the new files to that directory's owner,
    /// or the daemon could not open its own database. SQLite keeps later -wal/-shm files with the database's owner.
    private static func giveToDirectoryOwner(_ path: String) {
        guard geteuid() == 0 else { return }
        var directory = stat()
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        guard stat(parent.isEmpty ? "/" : parent, &directory) == 0, directory.st_uid != 0 else { return }
        for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            _ = chown(path + suffix, directory.st_uid, directory.st_gid)
        }
    }

    private static func makeDirectories(for file: String) throws(CommandError) {
        var prefix = ""
        for part in file.split(separator: "/").dropLast() {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw .failure("cannot create the directory \(prefix): \(String(cString: strerror(errno))).")
            }
        }
    }

    // MARK: Terminal

    /// Writes `text` and a newline to standard output (data).
    func out(_ text: String) { Context.write(text + "\n", to: 1) }

    /// Writes `text` as it is to standard output (data that ends with its own newline).
    func outRaw(_ text: String) { Context.write(text, to: 1) }

    /// Writes `text` and a newline to standard error (messages for the person).
    func say(_ text: String) { Context.write(text + "\n", to: 2) }

    /// True when standard input is a terminal, so missing answers may be asked for.
    var inputIsTerminal: Bool { Context.standardInputIsTerminal }

    static var standardInputIsTerminal: Bool { isatty(0) == 1 }

    /// Asks on standard error and reads one line from standard input; nil at end of input.
    func ask(_ question: String) -> String? {
        Context.write(question, to: 2)
        return readLine(strippingNewline: true)
    }

    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
        bytes.removeAll()
    }
}

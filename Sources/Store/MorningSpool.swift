import Platform
import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// What the box measured or was told, kept on disk until the database has it: a finished morning or a
/// keypad questionnaire. A morning costs the person three minutes lying still; a database that is
/// locked by another process, full, replaced or gone must not cost them the morning.
///
/// One file per record in a directory the daemon owns. Each is written to a temporary name, flushed
/// (`fsync`), renamed into place and the directory flushed, so after a crash or power cut a file is
/// either whole or absent (rename(2) is atomic; fsync(2) on the directory makes the rename durable).
/// The file is an export document (`ExportDocument`, full, one day) whose `generatedAt` is the moment
/// the record was made, so a spooled morning reads back with the code that reads exports.
public final class MorningSpool {
    /// One record waiting for the database.
    public struct Entry: Hashable, Sendable {
        public enum Content: Hashable, Sendable {
            case morning(MorningMeasurement)
            case questionnaire(Questionnaire)

            /// The day the record belongs to.
            public var date: LocalDate {
                switch self {
                case .morning(let m): m.date
                case .questionnaire(let q): q.date
                }
            }

            public var kind: String {
                switch self {
                case .morning: "morning"
                case .questionnaire: "questionnaire"
                }
            }
        }

        public var content: Content
        /// Seconds since the Unix epoch when the record was made (its `recorded_at` in the database).
        public var recordedAt: Int64
        /// The file's name inside the spool directory.
        public var name: String

        public var date: LocalDate { content.date }
        public var kind: String { content.kind }
    }

    /// Why the spool could not keep or read a record, as one sentence.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        /// The errno of the system call that failed (ENOSPC for a full disk), when one did.
        public var errno: Int32?
    }

    /// What became of a spooled record when it was offered to the database.
    public enum Outcome: Hashable, Sendable {
        /// Written to the database; the file is gone.
        case filed(Entry)
        /// The database already holds a later record for that day (a newer check-in over SSH): the spooled
        /// one would replace it, so it is dropped.
        case superseded(Entry)
        /// The database refused; the file stays.
        case refused(Entry, StoreError)
    }

    public let directory: String

    /// The spool for the database at `databasePath`: a directory beside it, `<database>.spool`, so the
    /// daemon and the CLI (`recoverydeck delete`, `doctor`) find the same one from the database path alone.
    public static func directory(forDatabase databasePath: String) -> String { databasePath + ".spool" }

    /// Opens the spool directory, creating it when missing with mode 0700 (it holds health data), or 2770
    /// beside a database shared with the box's group (`SharedState`).
    public init(directory: String) throws(Failure) {
        self.directory = directory
        fileMode = SharedState.fileMode(in: PathName.directory(of: directory))
        let mode = SharedState.directoryMode(in: PathName.directory(of: directory))
        if mkdir(directory, mode & 0o777) == 0 {
            // The umask may have taken bits away; under the daemon's seccomp filter a mode with the set-group-ID
            // bit is refused, and the bit is already there, inherited from the shared folder.
            _ = chmod(directory, mode)
        } else if errno != EEXIST {
            throw MorningSpool.failure("cannot create the spool directory \(directory)")
        }
        // lstat: root's `delete --all` must not unlink files in a directory a planted link points to.
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(
                description: "The spool \(directory) is not a plain directory (a symbolic link?), so it was not used.",
                errno: ENOTDIR)
        }
        sweepStaleTemporaries()
    }

    /// Removes temporaries older than `staleTemporarySeconds`: `keep` writes and renames one within
    /// milliseconds, so an older one was left by a crash or a power cut between the two, and its record was never
    /// kept (the morning it held was not reported saved).
    func sweepStaleTemporaries(nowEpochSeconds: Int64 = Int64(time(nil))) {
        for name in fileNames(temporariesToo: true) where name.hasPrefix(".") {
            var info = stat()
            guard lstat(path(name), &info) == 0, nowEpochSeconds - Int64(info.st_mtim.tv_sec) > MorningSpool.staleTemporarySeconds
            else { continue }
            _ = unlink(path(name))
        }
    }

    static let staleTemporarySeconds: Int64 = 60

    /// The mode of the records it writes (0600, or 0660 when shared with the box's group).
    let fileMode: mode_t

    /// Opens an existing spool without creating anything (nil when there is none): for readers.
    public static func existing(forDatabase databasePath: String) -> MorningSpool? {
        let path = directory(forDatabase: databasePath)
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return try? MorningSpool(directory: path)
    }

    // MARK: Keeping

    /// Writes `content` durably (temporary name, fsync, rename, directory fsync) and returns its entry.
    /// A failure leaves no file behind.
    @discardableResult
    public func keep(_ content: Entry.Content, recordedAt: Int64) throws(Failure) -> Entry {
        var entry = Entry(content: content, recordedAt: recordedAt, name: "")
        let base = "\(entry.date.iso)-\(entry.kind)-\(recordedAt)"
        // A counter after the second keeps two records of one second (a remeasure) apart, in order.
        var n = 1
        var name = "\(base)-1.json"
        while access(path(name), F_OK) == 0 {
            n += 1
            name = "\(base)-\(n).json"
        }
        entry.name = name
        let bytes = Array(MorningSpool.document(entry).json.serialized().utf8)
        // A temporary of the same name can only be one a crash left: it is reused.
        do throws(FileWriteError) {
            try FileDescriptor.writeAtomically(
                bytes, to: path(name), temporary: path(".\(name).tmp"),
                permissions: FilePermissions(rawValue: fileMode), overwritingTemporary: true)
        } catch {
            throw Failure(error)
        }
        return entry
    }

    /// Every record waiting, oldest first. A file that cannot be read as a spooled record is reported in
    /// `unreadable` as "<name>: <why>" and left in place for a person to look at.
    public func entries() -> (entries: [Entry], unreadable: [String]) {
        var entries: [Entry] = []
        var unreadable: [String] = []
        let folder: FileDescriptor
        do { folder = try openDirectory() } catch {
            return ([], ["\(directory): \(error)"])
        }
        defer { folder.close() }
        let owner = expectedOwner()
        for name in fileNames() {
            let record: SpoolRecord
            switch MorningSpool.readBytes(name, in: folder, owner: owner).flatMap(SpoolRecord.decode) {
            case .success(let r): record = r
            case .failure(let why):
                unreadable.append("\(name): \(why)")
                continue
            }
            let content: Entry.Content
            if let m = record.day.measurement {
                content = .morning(m)
            } else if let q = record.day.questionnaire {
                content = .questionnaire(q)
            } else {
                continue  // SpoolRecord.decode refuses such a file already
            }
            entries.append(Entry(content: content, recordedAt: record.recordedAt, name: name))
        }
        entries.sort { ($0.recordedAt, $0.name) < ($1.recordedAt, $1.name) }
        return (entries, unreadable)
    }

    /// True when nothing is waiting.
    public var isEmpty: Bool { fileNames().isEmpty }

    /// Removes a record's file (once the database holds it, or it was deleted on purpose).
    public func remove(_ entry: Entry) throws(Failure) {
        guard unlink(path(entry.name)) == 0 || errno == ENOENT else {
            throw MorningSpool.failure("cannot remove \(path(entry.name))")
        }
        try syncDirectory()
    }

    /// Removes every record for the days in `from...through` (`recoverydeck delete`: the spool must not bring a
    /// deleted day back). Returns how many went.
    @discardableResult
    public func removeDays(from: LocalDate, through: LocalDate) throws(Failure) -> Int {
        var count = 0
        for entry in entries().entries where entry.date >= from && entry.date <= through {
            try remove(entry)
            count += 1
        }
        // A temporary (`.<day>-<kind>-….json.tmp`) holds a whole record too: a crash between its write and its
        // rename leaves it, and it must go with its day.
        for name in fileNames(temporariesToo: true) where name.hasPrefix(".") {
            guard let day = LocalDate(iso: name.dropFirst().prefix(10)), day >= from, day <= through else { continue }
            guard unlink(path(name)) == 0 || errno == ENOENT else { throw MorningSpool.failure("cannot remove \(name)") }
        }
        try syncDirectory()
        return count
    }

    /// Removes every record, unreadable files included (`recoverydeck delete --all` leaves nothing behind).
    public func removeAll() throws(Failure) {
        for name in fileNames(temporariesToo: true) {
            guard unlink(path(name)) == 0 || errno == ENOENT else { throw MorningSpool.failure("cannot remove \(name)") }
        }
        try syncDirectory()
    }

    // MARK: Filing

    /// Offers every waiting record to `store`, oldest first, and removes the files it took. Stops at the first
    /// refusal (a locked or full database refuses the rest too; order matters for the same day).
    public func file(into store: Store) -> [Outcome] { file(entries().entries, into: store) }

    /// Offers `entries` (as `entries()` read them, oldest first) to `store`, as `file(into:)` does.
    public func file(_ entries: [Entry], into store: Store) -> [Outcome] {
        var outcomes: [Outcome] = []
        for entry in entries {
            do {
                switch try store.recordedAt(of: entry) {
                case let stored? where stored > entry.recordedAt:
                    try? remove(entry)
                    outcomes.append(.superseded(entry))
                    continue
                case let stored? where stored == entry.recordedAt:
                    // Filed before a crash took the file's removal with it: filing again would repeat the
                    // morning's analytics events.
                    try? remove(entry)
                    outcomes.append(.filed(entry))
                    continue
                default: break
                }
                switch entry.content {
                case .morning(let m): try store.saveMorning(m, recordedAt: entry.recordedAt)
                case .questionnaire(let q): try store.saveQuestionnaire(q, recordedAt: entry.recordedAt)
                }
            } catch {
                outcomes.append(.refused(entry, error))
                break
            }
            // In the database now; a file that cannot be removed is recognised by its recorded_at next time.
            try? remove(entry)
            outcomes.append(.filed(entry))
        }
        return outcomes
    }

    // MARK: Files

    static func document(_ entry: Entry) -> ExportDocument {
        let day: DayRecord
        switch entry.content {
        case .morning(let m): day = DayRecord(date: m.date, measurement: m)
        case .questionnaire(let q): day = DayRecord(date: q.date, questionnaire: q)
        }
        return ExportDocument(generatedAt: entry.recordedAt, full: true, habits: [], days: [day])
    }

    private func path(_ name: String) -> String { directory + "/" + name }

    private func fileNames(temporariesToo: Bool = false) -> [String] {
        let all = (try? DirectoryEntries.names(in: directory)) ?? []
        return all.filter { name in
            // `.<name>.tmp` from keep(_:recordedAt:) can hold a whole morning.
            (name.hasSuffix(".json") && !name.hasPrefix("."))
                || (temporariesToo && name.hasPrefix(".") && name.hasSuffix(".json.tmp"))
        }.sorted()
    }

    /// fsync(2) on the directory: makes a rename or unlink in it durable.
    private func syncDirectory() throws(Failure) {
        do throws(FileWriteError) { try FileDescriptor.synchronizeDirectory(atPath: directory) } catch {
            throw Failure(error)
        }
    }

    /// A record is one day's export document; 16 MiB is far beyond any real one.
    static let maximumRecordBytes = 16 << 20

    /// The spool directory itself, never through a link.
    private func openDirectory() throws(Errno) -> FileDescriptor {
        try FileDescriptor.open(directory, .readOnly, options: [.directory, .noFollow])
    }

    /// Whose files the spool holds: the owner of the folder the database is in (the daemon's user on the
    /// box). Anyone else who can write the folder (a member of a shared group) can plant a file there, but
    /// not one of that owner's.
    private func expectedOwner() -> uid_t? {
        var info = stat()
        guard lstat(PathName.directory(of: directory), &info) == 0 else { return nil }
        return info.st_uid
    }

    typealias Refusal = SpoolRecord.Refusal

    /// The bytes of the spool file `name`, opened relative to `folder` with `O_NOFOLLOW | O_NONBLOCK` and
    /// checked with `fstat` before a byte is read: a link is never followed (it could reach a file of the
    /// daemon's user outside the spool), a FIFO or device never read (a FIFO's open or read would block the
    /// one thread for ever), and a file of another owner never taken for a record.
    static func readBytes(_ name: String, in folder: FileDescriptor, owner: uid_t?) -> Result<[UInt8], Refusal> {
        let fd: FileDescriptor
        do {
            fd = try folder.open(relative: name, .readOnly, options: [.noFollow, .nonBlocking, .noControllingTerminal])
        } catch {
            if error.rawValue == ELOOP { return .failure(Refusal(description: "a symbolic link, not a record")) }
            return .failure(Refusal(description: error.message))
        }
        defer { fd.close() }
        let info: stat
        do { info = try fd.status() } catch { return .failure(Refusal(description: "\(error)")) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .failure(Refusal(description: "not a regular file (\(MorningSpool.kind(of: info.st_mode)))"))
        }
        if let owner, info.st_uid != owner {
            return .failure(Refusal(description: "owned by uid \(info.st_uid), not by the spool's owner (uid \(owner))"))
        }
        do { return .success(try fd.readToEnd(limit: maximumRecordBytes, name: name)) } catch {
            return .failure(Refusal(description: "\(error)"))
        }
    }

    /// What `mode`'s file type is, in words.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a plain file"
        }
    }

    private static func failure(_ what: String) -> Failure {
        let code = Errno.current
        return Failure(description: "\(what): \(code.message).", errno: code.rawValue)
    }
}

extension MorningSpool.Failure {
    /// A step of a write or a directory flush, in its own sentence ("cannot flush <path>: <reason>.").
    init(_ failure: FileWriteError) {
        self.init(description: failure.description, errno: failure.errno.rawValue)
    }
}

extension Store {
    /// The latest `recorded_at` of the day's questionnaire or measurement, nil when the day holds neither.
    public func lastRecordedAt(on date: LocalDate) throws(StoreError) -> Int64? {
        try database.prepare(
            """
            SELECT MAX(recorded_at) FROM (SELECT recorded_at FROM questionnaire WHERE day = ?1
                UNION ALL SELECT recorded_at FROM measurement WHERE day = ?1)
            """
        ).rows([.text(date.iso)]) { $0.int64(0) }.first ?? nil
    }

    /// When the database's record of the entry's kind for its day was made, nil when it has none.
    func recordedAt(of entry: MorningSpool.Entry) throws(StoreError) -> Int64? {
        let table = entry.kind == "morning" ? "measurement" : "questionnaire"
        // A damaged row is left out (said once): the spooled record then takes its day's place.
        return try database.prepare("SELECT recorded_at FROM \(table) WHERE day = ?1").decodedRows(
            [.text(entry.date.iso)], table: table, skipped: skipRow
        ) { (row) throws(StoreError) in try row.int64("recorded_at") }.first
    }
}

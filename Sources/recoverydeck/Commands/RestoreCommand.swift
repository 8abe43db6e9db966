import ControlProtocol
import JSON
import Platform
import RecoveryCore
import Store

/// `recoverydeck restore`: the database back from the box's own JSON export (`export --full`), after a
/// new SD card or a `delete --all`.
struct RestoreCommand: Command {
    static let name = "restore"
    static let summary = "Bring the database back from the box's own JSON export (export --full)."
    static let synopsis: String? = "FILE [--replace] [--socket PATH]"
    static let discussion = """
        Reads a JSON file written by `recoverydeck export` (any protocolVersion this RecoveryDeck
        writes; a newer one is refused) and makes the database hold exactly what it held: every
        day's check-in with habits, caffeine, meal time and note, every measurement with its raw RR
        and heart-rate samples, and from a full export the settings (habit list, display name,
        paired strap, reminder), the analytics events and the experiments (their schedules, and
        whether and when each was stopped). Days the box measured stay the box's; imported days
        stay imported. An export without --full brings back the days without raw samples, and the
        habit list.

        Into a database with no data, or over one with --replace (what it held is deleted). The
        file is read one day at a time and every value checked before anything is kept; a
        malformed one, anywhere in the file, changes nothing. A running daemon
        is asked to pause its writes while the database is rewritten; while a morning session is
        running, restore refuses.
        """
    static let options: [OptionSpec] = [
        .flag("replace", help: "Replace the data the database holds now."),
        SessionFollower.socketOption,
    ]
    static let arguments = [ArgumentSpec("FILE", help: "The export; - reads standard input.")]

    let file: String
    let replace: Bool
    let socket: String?

    init(_ parsed: ParsedArguments) throws(CommandError) {
        file = parsed.positional(0) ?? ""
        replace = parsed.flag("replace")
        socket = parsed.value("socket")
    }

    func validate() throws(CommandError) {
        if file.isEmpty { throw .usage("FILE is empty: name the export to restore.") }
    }

    func run(_ context: Context) throws {
        let name = file == "-" ? "standard input" : file
        let fd = try Files.openForReading(file)
        defer { if file != "-" { fd.close() } }
        var chunks = Files.Chunks(fd, name: name, limit: Files.maximumRestoreBytes)
        var reader = ExportDocumentReader(
            JSONStream(source: { () throws(JSONStreamError) -> [UInt8]? in
                do throws(FileReadError) { return try chunks.next().map(Array.init) } catch { throw .unreadable(error.description) }
            }))
        let store = try context.store()
        if !replace, !(try store.holdsNoData()) {
            throw CommandError.failure(
                "the database \(store.path) already holds data; give --replace to restore over it (export it first "
                    + "if in doubt). Nothing was restored.")
        }
        let daemon = try DaemonWrites.pause(SessionFollower.socketPath(socket, context))
        defer { daemon?.resume() }
        let summary: RestoreSummary
        do throws(RestoreError) { summary = try store.restore(&reader, replace: replace) } catch {
            switch error {
            case .document(let e): throw CommandError.failure("\(file): \(e.description) Nothing was restored.")
            case .store(let e): throw CommandError.failure("cannot restore: \(e.message). Nothing was restored.")
            }
        }
        var what = "\(summary.days) day\(summary.days == 1 ? "" : "s")"
        if summary.full {
            what +=
                ", \(summary.rrIntervals) RR intervals, \(summary.settings) settings, "
                + "\(summary.analytics) analytics events, \(summary.experiments) experiments"
        }
        context.say("Restored \(what) from \(file).")
        if !summary.full {
            context.say("The export is not a full one: it holds no raw RR, settings, analytics or experiments (export --full does).")
        }
    }
}

/// A running daemon, told to start and save no morning while the database is rewritten
/// (`ControlRequest.pauseWrites`); the pause ends with `resume()` or when this process's connection closes.
/// No daemon answering: nothing to pause.
final class DaemonWrites {
    private let client: ControlClient

    private init(_ client: ControlClient) { self.client = client }

    /// Refuses with a sentence while a morning session runs; nil when no daemon runs. A daemon that runs but
    /// cannot be told to pause (stalled, another protocol version, a socket served by somebody else) refuses the
    /// restore too: rewriting the database under a daemon that keeps writing would mix the two.
    static func pause(_ socketPath: String) throws(CommandError) -> DaemonWrites? {
        let client: ControlClient
        do { client = try ControlClient(path: socketPath) } catch {
            if error.notRunning { return nil }
            throw .failure("\(error) Nothing was restored.")
        }
        do {
            _ = try client.ask(.pauseWrites, Acknowledged.self, timeoutMs: 2000)
        } catch {
            switch error {
            case .unreachable(let unreachable): throw .failure("\(unreachable) Nothing was restored.")
            case .refused(let refusal): throw .failure("recoverydeckd: \(refusal.message) Nothing was restored.")
            case .malformed(let malformed): throw .failure("\(malformed) Nothing was restored.")
            }
        }
        return DaemonWrites(client)
    }

    /// Lets the daemon write again; it reads the restored day and settings.
    func resume() {
        _ = try? client.send(.resumeWrites, timeoutMs: 2000)
    }
}

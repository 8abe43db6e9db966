import ControlProtocol
import JSON
import BlueZ
import HeartRateProtocol
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeck scan`: the straps in range, from LE discovery through the management interface
/// (DESIGN §5): name, address, address type, signal strength.
struct ScanCommand: Command {
    static let name = "scan"
    static let summary = "List the heart-rate straps in range (name, address, address type, signal)."
    static let discussion = """
        Listens for Bluetooth LE advertising for a few seconds and lists what looks like a strap: a
        name starting "Polar H10", or the Heart Rate service. A strap only advertises while worn
        (moisten the electrodes) and while no phone app holds it. Discovery needs the
        CAP_NET_ADMIN capability: run as root, or as a member of the box's group, for whom the
        running daemon scans (not during a morning). Exits 1 when nothing is found.
        """
    static let options: [OptionSpec] = [
        .value("seconds", "N", help: "How long to listen (1 to 120). Default: 10."),
        AdapterOption.spec,
        .flag("json", help: "Print a JSON array of {name, address, addressType, rssi}."),
    ]

    let seconds: Int
    let adapter: String?
    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        seconds = try parsed.integer("seconds", in: 1...120) ?? 10
        adapter = try AdapterOption.parse(parsed)
        json = parsed.flag("json")
    }

    func run(_ context: Context) throws {
        let found = try Self.scan(adapter: adapter, seconds: seconds, context: context)
        if json {
            context.out("[" + found.map(Self.json).joined(separator: ",") + "]")
        } else if !found.isEmpty {
            context.out(Self.table(found))
        }
        if found.isEmpty { throw CommandError.failure(BlueZError.noStrapFound(seconds: seconds).description) }
    }

    /// Discovers for `seconds` (sooner on Ctrl-C) and returns the straps, strongest signal first. Without
    /// CAP_NET_ADMIN (a member of the box's group over SSH) the daemon, which holds it, scans instead.
    static func scan(
        adapter: String?, seconds: Int, context: Context, stopWhen: (StrapCandidate) -> Bool = { _ in false }
    )
        throws -> [StrapCandidate]
    {
        do {
            return try scanHere(adapter: adapter, seconds: seconds, context: context, stopWhen: stopWhen)
        } catch let lacking as LacksCapability {
            return try scanThroughDaemon(adapter: adapter, seconds: seconds, context: context, lacking: lacking)
        }
    }

    /// The kernel refused discovery to this process for want of CAP_NET_ADMIN.
    struct LacksCapability: Error {
        var sentence: String
    }

    /// Asks the daemon to scan: it answers when the time is up.
    static func scanThroughDaemon(adapter: String?, seconds: Int, context: Context, lacking: LacksCapability) throws
        -> [StrapCandidate]
    {
        let path = SessionFollower.socketPath(nil, context)
        let client: ControlClient
        do { client = try ControlClient(path: path) } catch {
            throw CommandError.failure(unaskedSentence(socket: path, context: context))
        }
        let request = ControlRequest.scan(seconds: seconds, adapter: adapter)
        return try SessionFollower.send(client, request, ScanFound.self, timeoutMs: Int32(seconds * 1000 + 10_000)).straps
    }

    /// Why neither this process nor the daemon can scan, as one sentence: outside the daemon's group, or no
    /// daemon to ask.
    static func unaskedSentence(socket path: String, context: Context) -> String {
        // Refused: a socket this process may not open, or one in a folder it may not enter (/run/recoverydeck).
        var info = stat()
        let found = stat(path, &info) == 0
        let why = errno
        var refused = found && access(path, R_OK | W_OK) != 0
        if !found && why == EACCES, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            refused = stat(String(path[..<slash]), &info) == 0
        }
        if refused {
            let group = ServiceGroup.name(of: info.st_gid) ?? "gid \(info.st_gid)"
            let user = context.environment("USER") ?? context.environment("LOGNAME") ?? "YOU"
            return "Bluetooth discovery needs the CAP_NET_ADMIN capability, which recoverydeckd uses for the "
                + "members of the \(group) group only: ask root for `sudo adduser \(user) \(group)` and log in "
                + "again, or run this with sudo."
        }
        return "Bluetooth discovery needs the CAP_NET_ADMIN capability: run this with sudo, or start recoverydeckd "
            + "(`sudo systemctl start recoverydeckd`), which scans for the members of its group."
    }

    private static func scanHere(
        adapter: String?, seconds: Int, context: Context, stopWhen: (StrapCandidate) -> Bool
    ) throws -> [StrapCandidate] {
        let (socket, controller) = try AdapterOption.open(adapter)
        let scanner = StrapScanner(controller: controller, socket: socket)
        let signals = try SignalFD(signals: [.interrupt, .terminate])
        defer { signals.close() }
        let endMs = SystemClock.monotonicMs() + Int64(seconds) * 1000
        var events = scanner.start(nowMs: SystemClock.monotonicMs())
        defer { scanner.stop() }
        scanning: while true {
            for event in events {
                switch event {
                case .failed(let error):
                    if case .missingCapability = error { throw LacksCapability(sentence: error.description) }
                    throw CommandError.failure(error.description)
                case .found(let candidate): if stopWhen(candidate) { break scanning }
                }
            }
            let now = SystemClock.monotonicMs()
            if now >= endMs { break }
            let deadline = min(endMs, scanner.nextDeadlineMs ?? endMs)
            let ready =
                (try? ReadinessWait.readable([scanner.descriptor, signals.descriptor], timeoutMs: deadline - now)) ?? []
            if ready.contains(signals.descriptor) { break }
            let after = SystemClock.monotonicMs()
            events = ready.contains(scanner.descriptor) ? scanner.onReadable(nowMs: after) : []
            events += scanner.onDeadline(nowMs: after)
        }
        return scanner.candidates.values.sorted {
            ($0.rssi ?? Int8.min, $0.address.rawValue) > ($1.rssi ?? Int8.min, $1.address.rawValue)
        }
    }

    static func json(_ c: StrapCandidate) -> String {
        var line = JSONLine()
        line.add("name", c.name)
        line.add("address", c.address.description)
        line.add("addressType", c.addressType.word)
        line.add("rssi", c.rssi.map(Int64.init))
        return line.text
    }

    static func table(_ found: [StrapCandidate]) -> String {
        let nameWidth = max(4, found.map { ($0.name ?? "?").count }.max() ?? 0)
        var lines = [Formatting.padded("NAME", nameWidth) + "  ADDRESS            TYPE    RSSI"]
        for c in found {
            lines.append(
                Formatting.padded(c.name ?? "?", nameWidth) + "  " + c.address.description + "  "
                    + Formatting.padded(c.addressType.word, 6) + "  "
                    + Formatting.leftPadded(c.rssi.map(String.init) ?? "?", 4))
        }
        return lines.joined(separator: "\n")
    }
}

import ControlProtocol
import JSON
import BlueZ
import HeartRateProtocol
import Platform
import Store

/// Discovery asked for over the control socket: `recoverydeck scan` and `pair` run by a member of the box's
/// group, who holds no CAP_NET_ADMIN, are answered by the daemon, which does. One discovery at a time, on its
/// own management channel (the strap's controller watch keeps its own); every client that asks while it runs
/// joins it and is answered when its own time is up. Times are on the real monotonic clock: a simulated
/// clock's speed does not make the radio listen faster.
final class StrapDiscovery {
    /// An answer due to one client.
    struct Answer {
        var client: FileDescriptor
        var reply: JSONValue
    }

    private var scanner: StrapScanner?
    /// Choosing the controller, before the scanner starts: the kernel's answers arrive as packets the loop reads
    /// (`ControllerWatch`), so the daemon's one thread never waits on the management interface.
    private var choosing: ControllerWatch?
    /// Each waiting client and when its answer is due (real monotonic ms).
    private var askers: [FileDescriptor: Int64] = [:]
    /// Opens a management channel (a test stands in for the kernel); opening does not wait on the kernel.
    private let open: () throws(BlueZError) -> ManagementSocket
    /// The adapter recoverydeck.conf names, when a request names none.
    private let configuredAdapter: String?
    private let rfkillRoot: String
    /// Holds the running discovery's management channel: the daemon's loop watches this set, made once.
    let readiness: ReadinessSet

    init(
        configuredAdapter: String? = nil, rfkillRoot: String = Rfkill.defaultRoot,
        open: @escaping () throws(BlueZError) -> ManagementSocket = { () throws(BlueZError) in try ManagementSocket() }
    ) throws(Errno) {
        self.open = open
        self.configuredAdapter = configuredAdapter
        self.rfkillRoot = rfkillRoot
        readiness = try ReadinessSet()
    }

    /// The running discovery's management channel (inside `readiness`).
    var descriptor: FileDescriptor? { scanner?.descriptor ?? choosing?.descriptor }
    var isRunning: Bool { scanner != nil || choosing != nil }

    /// The earliest of the controller choice's limit, the scanner's retry and the answers due.
    var nextDeadlineMs: Int64? {
        EventLoop.earliest([choosing?.nextDeadlineMs, scanner?.nextDeadlineMs, askers.values.min()])
    }

    /// Starts a discovery for `client` (or joins the one running). A refusal is the reply to send at once; a
    /// failure found later (no such adapter, powered off) is an answer from `onReadable` or `onDeadline`.
    func begin(client: FileDescriptor, seconds: Int, adapter: String?, nowMs: Int64) -> ControlRefusal? {
        if !isRunning {
            let socket: ManagementSocket
            do { socket = try open() } catch {
                return ControlRefusal(code: .bluetooth, message: error.description)
            }
            let watch = ControllerWatch(socket: socket, name: adapter ?? configuredAdapter, rfkillRoot: rfkillRoot)
            choosing = watch
            do { try readiness.watch(watch.descriptor) } catch {
                // Unwatched, the kernel's answers would never be read: refused now, the client may ask again.
                end()
                return ControlRefusal(
                    code: .bluetooth, message: "The daemon cannot watch its Bluetooth management channel: \(error).")
            }
            if case .failed(let error) = watch.resolve(nowMs: nowMs) {
                end()
                return ControlRefusal(code: .bluetooth, message: error.description)
            }
        }
        askers[client] = max(askers[client] ?? 0, nowMs + Int64(seconds) * 1000)
        return nil
    }

    /// The controller choice came to an end: scan from the chosen one on the same channel, or answer everyone.
    private func chosen(_ state: ControllerWatch.State?, nowMs: Int64) -> [Answer] {
        guard let watch = choosing, let state else { return [] }
        switch state {
        case .resolving:
            return []
        case .failed(let error):
            return abandon(ControlRefusal(code: .bluetooth, message: error.description))
        case .chosen(let controller):
            choosing = nil
            let started = StrapScanner(controller: controller, socket: watch.socket)
            scanner = started
            return settle(started.start(nowMs: nowMs), nowMs: nowMs)
        }
    }

    /// Ends the discovery for everyone, answering each client with `refusal`.
    func abandon(_ refusal: ControlRefusal) -> [Answer] {
        let answers = askers.keys.map { Answer(client: $0, reply: refusal.json) }
        askers = [:]
        end()
        return answers
    }

    /// The client went away: its answer is not sent, and the discovery ends when nobody waits for it.
    func forget(_ client: FileDescriptor) {
        askers[client] = nil
        if askers.isEmpty { end() }
    }

    func onReadable(nowMs: Int64) -> [Answer] {
        if let choosing { return chosen(choosing.onReadable(nowMs: nowMs), nowMs: nowMs) }
        guard let scanner else { return [] }
        return settle(scanner.onReadable(nowMs: nowMs), nowMs: nowMs)
    }

    func onDeadline(nowMs: Int64) -> [Answer] {
        if let choosing { return chosen(choosing.onDeadline(nowMs: nowMs), nowMs: nowMs) }
        guard let scanner else { return [] }
        return settle(scanner.onDeadline(nowMs: nowMs), nowMs: nowMs)
    }

    /// A failure ends the discovery for everyone, with its sentence; otherwise the clients whose time is up
    /// are answered with the straps found so far.
    private func settle(_ events: [StrapScanner.Event], nowMs: Int64) -> [Answer] {
        if let failure = failure(in: events) {
            return abandon(ControlRefusal(code: .bluetooth, message: failure.description))
        }
        let due = askers.filter { $0.value <= nowMs }.map(\.key)
        guard !due.isEmpty else { return [] }
        let reply = ScanFound(straps: found).json
        for client in due { askers[client] = nil }
        if askers.isEmpty { end() }
        return due.map { Answer(client: $0, reply: reply) }
    }

    /// The straps seen so far, strongest signal first.
    var found: [StrapCandidate] {
        (scanner?.candidates.values.map { $0 } ?? []).sorted {
            ($0.rssi ?? Int8.min, $0.address.rawValue) > ($1.rssi ?? Int8.min, $1.address.rawValue)
        }
    }

    private func failure(in events: [StrapScanner.Event]) -> BlueZError? {
        events.lazy.compactMap { if case .failed(let error) = $0 { error } else { nil } }.first
    }

    /// Stops discovering and closes the channel, out of `readiness` first.
    func end() {
        if let scanner { readiness.unwatch(scanner.descriptor) }
        scanner?.stop()
        scanner = nil
        // The channel closes with its last owner (ManagementSocket's deinit).
        if let choosing { readiness.unwatch(choosing.descriptor) }
        choosing = nil
    }
}

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
    /// Each waiting client and when its answer is due (real monotonic ms).
    private var askers: [FileDescriptor: Int64] = [:]
    /// Opens the management channel and picks the controller (a test stands in for the kernel).
    private let open: (String?) throws(BlueZError) -> (ManagementSocket, Controller)
    /// Holds the running discovery's management channel: the daemon's loop watches this set, made once.
    let readiness: ReadinessSet

    init(
        open: @escaping (String?) throws(BlueZError) -> (ManagementSocket, Controller) = { (name) throws(BlueZError) in
            let socket = try ManagementSocket()
            return (socket, try Controller.select(name, socket: socket))
        }
    ) throws(Errno) {
        self.open = open
        readiness = try ReadinessSet()
    }

    /// The running discovery's management channel (inside `readiness`).
    var descriptor: FileDescriptor? { scanner?.descriptor }
    var isRunning: Bool { scanner != nil }

    /// The earliest of the scanner's retry and the answers due.
    var nextDeadlineMs: Int64? { EventLoop.earliest([scanner?.nextDeadlineMs, askers.values.min()]) }

    /// Starts a discovery for `client` (or joins the one running). A refusal is the reply to send at once.
    func begin(client: FileDescriptor, seconds: Int, adapter: String?, nowMs: Int64) -> ControlRefusal? {
        if scanner == nil {
            let socket: ManagementSocket
            let controller: Controller
            do { (socket, controller) = try open(adapter) } catch {
                return ControlRefusal(code: "bluetooth", message: error.description)
            }
            let started = StrapScanner(controller: controller, socket: socket)
            scanner = started
            do { try readiness.watch(started.descriptor) } catch {
                // Unwatched, the kernel's answers would never be read: refused now, the client may ask again.
                end()
                return ControlRefusal(
                    code: "bluetooth", message: "The daemon cannot watch its Bluetooth management channel: \(error).")
            }
            if let failure = failure(in: started.start(nowMs: nowMs)) {
                end()
                return ControlRefusal(code: "bluetooth", message: failure.description)
            }
        }
        askers[client] = max(askers[client] ?? 0, nowMs + Int64(seconds) * 1000)
        return nil
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
        guard let scanner else { return [] }
        return settle(scanner.onReadable(nowMs: nowMs), nowMs: nowMs)
    }

    func onDeadline(nowMs: Int64) -> [Answer] {
        guard let scanner else { return [] }
        return settle(scanner.onDeadline(nowMs: nowMs), nowMs: nowMs)
    }

    /// A failure ends the discovery for everyone, with its sentence; otherwise the clients whose time is up
    /// are answered with the straps found so far.
    private func settle(_ events: [StrapScanner.Event], nowMs: Int64) -> [Answer] {
        if let failure = failure(in: events) {
            return abandon(ControlRefusal(code: "bluetooth", message: failure.description))
        }
        let due = askers.filter { $0.value <= nowMs }.map(\.key)
        guard !due.isEmpty else { return [] }
        let reply = JSONValue.object([("ok", .bool(true)), ("straps", .array(found.map(\.controlJSON)))])
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
    }
}

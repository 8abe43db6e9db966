import Platform
import RecoveryCore

/// What a strap tells the daemon.
public enum StrapEvent: Hashable, Sendable {
    case connected(address: String?, batteryPercent: Int?)
    case disconnected(reason: String)
    /// Retrying cannot help (no adapter, nothing paired, not found): the session ends with this fault.
    case failed(MorningFault, reason: String)
    /// One Heart Rate Measurement; BPM 0 means "no skin contact" (missing, never a rate).
    case sample(bpm: UInt16, rr: [UInt16])
}

/// The strap to connect to, as text: from the configuration or, failing that, what `recoverydeck pair`
/// stored. The daemon reads it at each connect, so pairing a new strap needs no restart.
public struct StrapAddress: Hashable, Sendable {
    /// nil: none configured or paired.
    public var address: String?
    /// "public" or "random"; nil: the address's form says.
    public var type: String?

    public init(address: String?, type: String? = nil) {
        self.address = address
        self.type = type
    }
}

/// The strap behind the session: the paired H10 over BlueZ sockets, or the in-process virtual strap.
/// Both follow the event-loop contract (APIS.md): a readiness set to watch, a deadline, never blocking.
public protocol StrapSource: AnyObject {
    /// The strap's descriptors, which come and go with its links, inside one set that stays the same for
    /// the strap's life: the daemon registers it once. nil: nothing to watch.
    var readiness: ReadinessSet? { get }
    /// `fd` is a member of `readiness` that is ready.
    func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [StrapEvent]
    var nextDeadlineMs: Int64? { get }
    func onDeadline(nowMs: Int64) -> [StrapEvent]
    /// Start connecting to `address` (and keep reconnecting after a loss) until `disconnect`. Already
    /// connected to it: reports `connected` again, so a new session learns it at once.
    func connect(to address: StrapAddress, nowMs: Int64) -> [StrapEvent]
    func disconnect() -> [StrapEvent]
    /// The simulated person stands at the long tone; a real strap ignores it.
    func personStands(atMs: Int64)
    /// One line for `recoverydeck watch` and the journal.
    var statusLine: String { get }
    func close()
}

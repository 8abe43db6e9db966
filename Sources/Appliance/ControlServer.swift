import ControlProtocol
import JSON
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's end of the control socket: accepts peers (checking their credentials), reads their
/// requests, answers, and streams to watchers. Non-blocking throughout; a watcher too slow to keep up
/// loses packets rather than stalling the box.
public final class ControlServer {
    struct Client {
        var connection: UnixConnection
        var peer: PeerCredentials
        var watching = false
    }

    public let listener: UnixListener
    /// The listener and every client: the daemon's loop watches this one set, made once.
    public let readiness: ReadinessSet
    let group: ServiceGroup?
    private var clients: [FileDescriptor: Client] = [:]
    private let ownUID: UInt32

    /// Listens at `path` (mode 0660; the directory is made 0750 if missing).
    public init(path: String, groupName: String) throws(Errno) {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let directory = String(path[..<slash])
            if access(directory, F_OK) != 0 { _ = mkdir(directory, 0o750) }
        }
        guard let address = UnixSocketAddress(path) else { throw Errno(rawValue: ENAMETOOLONG) }
        listener = try UnixListener.listen(at: address, mode: 0o660)
        do {
            readiness = try ReadinessSet()
            try readiness.watch(listener.descriptor)
        } catch {
            listener.close()
            throw error
        }
        do { group = try ServiceGroup.named(groupName) } catch {
            group = nil
            warnings.append(
                "cannot look up the group \(groupName): \(error); only root and the daemon's user are admitted")
        }
        ownUID = getuid()
        // Under the packaged unit the daemon already runs as the group (and its filter refuses chown).
        if let group, getegid() != group.gid { _ = chown(path, UInt32.max, group.gid) }
    }

    /// The most connections one user (other than root) may hold open at once: far more than a person's
    /// `watch` windows and commands, far fewer than the daemon's descriptors.
    public static let connectionsPerUser = 16
    /// The user whose connections are not limited: root (a test counts its own, root's, too).
    var uncountedUID: UInt32? = 0

    public var watcherCount: Int { clients.values.filter(\.watching).count }

    /// What `onReadable` found: requests to answer, and peers turned away.
    public enum Incoming {
        case request(FileDescriptor, ControlRequest)
        /// A request named in `extraNames`, left for whoever built the daemon to answer.
        case extra(FileDescriptor, JSONValue)
        case refused(FileDescriptor, ControlRefusal)
        case accepted(FileDescriptor)
        case closed(FileDescriptor)
        /// A peer that is not root, the daemon's user or in the group, or one with `connectionsPerUser` open
        /// already (`crowded`): told why and closed.
        case turnedAway(PeerCredentials, crowded: Bool)
    }

    /// Requests beyond the control protocol's that this daemon answers (`Daemon.ExtraRequests`); none on a box.
    var extraNames: Set<String> = []

    /// The packet as a request named in `extraNames`, else nil.
    private func extraRequest(_ packet: [UInt8]) -> JSONValue? {
        guard !extraNames.isEmpty, let text = String(validating: packet, as: UTF8.self),
            let json = try? JSONValue.parse(text), let name = json["request"]?.stringValue, extraNames.contains(name)
        else { return nil }
        return json
    }

    public func onReadable(_ fd: FileDescriptor) -> [Incoming] {
        if fd == listener.descriptor { return acceptAll() }
        guard let client = clients[fd] else { return [] }
        var incoming: [Incoming] = []
        for _ in 0..<16 {
            let record: (bytes: [UInt8], truncated: Bool)?
            do { record = try client.connection.receiveRecord(maximumBytes: ControlRequest.maximumPacket) } catch {
                drop(fd)
                return incoming + [.closed(fd)]
            }
            guard let record else { break }
            let packet = record.bytes
            if packet.isEmpty {
                drop(fd)
                return incoming + [.closed(fd)]
            }
            // A cut request is refused whole: its first 64 KiB may parse as a different request.
            guard !record.truncated else {
                incoming.append(
                    .refused(
                        fd,
                        ControlRefusal(
                            code: .tooLarge,
                            message: "The request is longer than \(ControlRequest.maximumPacket / 1024) KiB, so it was not read.")))
                continue
            }
            switch ControlRequest.parse(packet) {
            case .success(let request): incoming.append(.request(fd, request))
            case .failure(let refusal):
                if refusal.code == .unknownRequest, let extra = extraRequest(packet) {
                    incoming.append(.extra(fd, extra))
                } else {
                    incoming.append(.refused(fd, refusal))
                }
            }
        }
        return incoming
    }

    private func acceptAll() -> [Incoming] {
        var incoming: [Incoming] = []
        while true {
            let accepted: UnixConnection?
            do { accepted = try listener.accept() } catch {
                // Out of descriptors (EMFILE, ENFILE): the pending peer stays queued and the level-triggered
                // listener stays readable, so the daemon must stop watching it for a while, not retry at once.
                if error.rawValue == EMFILE || error.rawValue == ENFILE { acceptExhausted = error }
                break
            }
            guard let connection = accepted else { break }
            let peer: PeerCredentials
            do { peer = try connection.peerCredentials() } catch {
                warnings.append("cannot read a peer's credentials, so it was closed: \(error)")
                connection.close()
                continue
            }
            let admitted = peer.uid == 0 || peer.uid == ownUID || (group?.admits(peer) ?? false)
            // Root is never counted: one user's connections must not lock out root, who can mend the box.
            let crowded =
                peer.uid != uncountedUID && clients.values.count(where: { $0.peer.uid == peer.uid }) >= Self.connectionsPerUser
            guard admitted && !crowded else {
                let name = group?.name ?? "the service's group"
                let refusal =
                    admitted
                    ? ControlRefusal(
                        code: .tooManyConnections,
                        message: "This user already has \(Self.connectionsPerUser) connections to the box open; "
                            + "close one and try again.")
                    : ControlRefusal(code: .permission, message: "Only root or members of \(name) may control the box.")
                do {
                    _ = try connection.send(Array(refusal.json.serialized().utf8))
                } catch {
                    warnings.append("cannot tell a refused peer why: \(error)")
                }
                // Closing over an unread request would reset the connection, and the peer would read the reset
                // before the reason: discard what it already sent.
                discardPending(connection)
                connection.close()
                incoming.append(.turnedAway(peer, crowded: admitted))
                continue
            }
            do { try readiness.watch(connection.descriptor) } catch {
                // Unwatched, its requests would never be read: closed now, the peer can connect again.
                warnings.append("cannot watch a new client, so it was closed: \(error)")
                connection.close()
                continue
            }
            clients[connection.descriptor] = Client(connection: connection, peer: peer)
            incoming.append(.accepted(connection.descriptor))
        }
        return incoming
    }

    /// Reads and drops whatever `connection` has waiting.
    private func discardPending(_ connection: UnixConnection) {
        while true {
            do {
                guard let packet = try connection.receive(maximumBytes: ControlRequest.maximumPacket), !packet.isEmpty
                else { return }
            } catch where error == .connectionReset {
                return  // The peer left: nothing is waiting any more.
            } catch {
                warnings.append("cannot discard a refused peer's request: \(error)")
                return
            }
        }
    }

    public func peer(_ fd: FileDescriptor) -> PeerCredentials? { clients[fd]?.peer }

    public func reply(_ fd: FileDescriptor, _ json: JSONValue) {
        guard let client = clients[fd] else { return }
        do { try client.connection.send(Array(json.serialized().utf8)) } catch  where error == .wouldBlock {
            // A full socket buffer: the reader is not reading; drop this packet.
        } catch {
            drop(fd)
        }
    }

    public func startWatching(_ fd: FileDescriptor) { clients[fd]?.watching = true }

    /// Sends `json` to every watcher.
    public func broadcast(_ json: JSONValue) {
        let watchers = clients.filter(\.value.watching).map(\.key)
        guard !watchers.isEmpty else { return }
        let bytes = Array(json.serialized().utf8)
        for fd in watchers {
            guard let client = clients[fd] else { continue }
            do { try client.connection.send(bytes) } catch  where error == .wouldBlock {
            } catch {
                drop(fd)
            }
        }
    }

    /// Set when `accept` ran out of descriptors; the daemon takes it, pauses the listener and says so.
    public private(set) var acceptExhausted: Errno?

    public func takeAcceptExhausted() -> Errno? {
        defer { acceptExhausted = nil }
        return acceptExhausted
    }

    /// How long the daemon leaves the listener unwatched after running out of descriptors: long enough
    /// not to spin, short enough that a `recoverydeck` command (5 s connect timeout) still gets in.
    public static let acceptPauseMs: Int64 = 1_000

    /// While the listener is paused after EMFILE/ENFILE: when to watch it again (real monotonic ms).
    public private(set) var listenerResumeRealMs: Int64?

    /// Stops watching the listener (after running out of descriptors) for `acceptPauseMs`; the peers wait
    /// in the backlog. False if it is already paused.
    @discardableResult
    public func pauseAccepting(nowRealMs: Int64) -> Bool {
        guard listenerResumeRealMs == nil else { return false }
        readiness.unwatch(listener.descriptor)
        listenerResumeRealMs = nowRealMs + ControlServer.acceptPauseMs
        return true
    }

    /// Watches the listener again once its pause is over; if it cannot be watched yet, the pause starts
    /// over for another `acceptPauseMs` and the error is thrown.
    public func resumeAcceptingIfDue(nowRealMs: Int64) throws(Errno) {
        guard let due = listenerResumeRealMs, nowRealMs >= due else { return }
        do { try readiness.watch(listener.descriptor) } catch {
            listenerResumeRealMs = nowRealMs + ControlServer.acceptPauseMs
            throw error
        }
        listenerResumeRealMs = nil
    }

    /// The number of connected control clients.
    public var clientCount: Int { clients.count }

    /// Clients that went away while sending; the daemon unregisters their descriptors.
    public private(set) var dropped: [FileDescriptor] = []

    public func takeDropped() -> [FileDescriptor] {
        defer { dropped.removeAll() }
        return dropped
    }

    /// Failures the server met and worked around (a group it could not look up, a peer it could not
    /// identify), for the daemon's log; each is returned once.
    public private(set) var warnings: [String] = []

    public func takeWarnings() -> [String] {
        defer { warnings.removeAll() }
        return warnings
    }

    private func drop(_ fd: FileDescriptor) {
        guard let client = clients.removeValue(forKey: fd) else { return }
        dropped.append(fd)
        readiness.unwatch(fd)
        client.connection.close()
    }

    public func close() {
        for (fd, client) in clients {
            readiness.unwatch(fd)
            client.connection.close()
        }
        clients.removeAll()
        readiness.unwatch(listener.descriptor)
        listener.close()
    }
}

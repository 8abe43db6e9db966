import Platform
import JSON

#if canImport(Glibc)
    import Glibc
#endif

/// The CLI's end of the control socket: one request, its reply, and for `watch` the packets after it.
public final class ControlClient {
    public let connection: UnixConnection
    /// Where the daemon listens unless `control_socket` in its configuration says otherwise.
    public static let defaultPath = "/run/recoverydeck/control.sock"

    /// Why the daemon could not be reached, as one sentence.
    public struct Unreachable: Error, CustomStringConvertible {
        public var description: String
        /// No daemon listens at the path (no socket, or nobody accepting on it): nothing is running to ask.
        public var notRunning = false
    }

    /// How long `init` waits for the daemon to take the connection.
    public static let connectTimeoutMs: Int64 = 5_000

    public init(path: String, connectTimeoutMs: Int64 = ControlClient.connectTimeoutMs) throws(Unreachable) {
        guard let address = UnixSocketAddress(path) else {
            throw Unreachable(description: "The control socket path \(path) is too long.")
        }
        do {
            connection = try UnixConnection.connect(to: address, timeoutMs: connectTimeoutMs)
        } catch {
            switch error {
            case .timedOut, .wouldBlock:
                throw Unreachable(
                    description: "recoverydeckd did not take the connection within \(connectTimeoutMs / 1000) s "
                        + "(it is stalled or out of file descriptors): see `journalctl -u recoverydeckd`.")
            case .noEntry, .connectionRefused:
                throw Unreachable(
                    description: "recoverydeckd is not running (no control socket at \(path)): "
                        + "start it with `systemctl start recoverydeckd`.", notRunning: true)
            case .accessDenied, .permissionDenied:
                throw Unreachable(
                    description: "Permission denied on \(path): run as root or as a member of the recoverydeck group.")
            default:
                throw Unreachable(description: "Cannot reach recoverydeckd at \(path): \(error).")
            }
        }
        // The kernel's word on who listens (SO_PEERCRED), checked before a byte is sent: a server someone else
        // put at the path must not be told a request, nor have its answer printed to root.
        let trusted = ControlClient.trustedPeers()
        guard let peer = try? connection.peerCredentials(), trusted.contains(peer.uid) else {
            let uid = (try? connection.peerCredentials()).map { "uid \($0.uid)" } ?? "an unknown user"
            // deinit closes the connection.
            throw Unreachable(
                description: "The control socket \(path) is served by \(uid), not by root or the service user "
                    + "\(ControlClient.serviceUser), so nothing was sent to it.")
        }
    }

    /// The account the packaged daemon runs as (deploy/recoverydeckd.service).
    public static let serviceUser = "recoverydeck"

    /// Who may answer on the control socket: root, the service user, and this process's own user (a daemon
    /// it started itself, as `demo` does).
    static func trustedPeers() -> Set<UInt32> {
        var uids: Set<UInt32> = [0, geteuid(), getuid()]
        if let pw = getpwnam(serviceUser) { uids.insert(pw.pointee.pw_uid) }
        return uids
    }

    deinit { connection.close() }

    /// Sends `request` and waits up to `timeoutMs` for the reply.
    public func send(_ request: ControlRequest, timeoutMs: Int32 = 5000) throws(Unreachable) -> JSONValue {
        try send(json: request.json, timeoutMs: timeoutMs)
    }

    /// Sends a request packet and waits up to `timeoutMs` for the reply.
    public func send(json request: JSONValue, timeoutMs: Int32 = 5000) throws(Unreachable) -> JSONValue {
        do { try connection.send(Array(request.serialized().utf8)) } catch {
            // A peer the daemon turns away gets its reason and the close at once: the reason may already be
            // waiting when the request can no longer be sent.
            if let refusal = try? next(timeoutMs: 0) { return refusal }
            throw Unreachable(description: "Cannot talk to recoverydeckd: \(error).")
        }
        guard let reply = try next(timeoutMs: timeoutMs) else {
            throw Unreachable(description: "recoverydeckd did not answer within \(timeoutMs / 1000) s.")
        }
        try ControlClient.checkVersion(of: reply)
        return reply
    }

    /// Sends `request` and reads its answer as `Answer`: a refusal, an unreachable daemon and a reply out of
    /// shape each come back as one sentence (`ControlFailure`).
    public func ask<Answer: ControlAnswer>(
        _ request: ControlRequest, _ answer: Answer.Type, timeoutMs: Int32 = 5000
    ) throws(ControlFailure) -> Answer {
        let reply: JSONValue
        do { reply = try send(request, timeoutMs: timeoutMs) } catch { throw .unreachable(error) }
        return try Answer.decode(reply)
    }

    /// The next packet of a `watch` stream, decoded; nil on timeout.
    public func nextEvent(timeoutMs: Int32) throws(ControlFailure) -> ControlEvent? {
        let packet: JSONValue?
        do { packet = try next(timeoutMs: timeoutMs) } catch { throw .unreachable(error) }
        guard let packet else { return nil }
        do { return try ControlEvent(json: packet) } catch { throw .malformed(error) }
    }

    /// A reply from a daemon of another protocol version is not read: its fields may mean something else.
    static func checkVersion(of reply: JSONValue) throws(Unreachable) {
        let version = reply["version"]?.int64Value
        guard version != ControlRequest.protocolVersion else { return }
        throw Unreachable(
            description: "recoverydeckd speaks control protocol \(version.map(String.init) ?? "0 (it states none)"), "
                + "this recoverydeck \(ControlRequest.protocolVersion): install the same release of both.")
    }

    /// The next packet from the daemon; nil on timeout. Throws when the daemon closed the connection.
    public func next(timeoutMs: Int32) throws(Unreachable) -> JSONValue? {
        do {
            if try ReadinessWait.readable([connection.descriptor], timeoutMs: Int64(timeoutMs)).isEmpty { return nil }
        } catch {
            throw Unreachable(description: "Waiting for recoverydeckd failed: \(error).")
        }
        var packet: [UInt8]?
        do { packet = try connection.receive(maximumBytes: ControlRequest.maximumPacket) } catch {
            // The kernel reports a reset before the packets queued ahead of it (a refusal's reason): read on.
            guard error == .connectionReset,
                let queued = try? connection.receive(maximumBytes: ControlRequest.maximumPacket),
                !queued.isEmpty
            else { throw Unreachable(description: "The connection to recoverydeckd failed: \(error).") }
            packet = queued
        }
        guard let packet else { return nil }
        if packet.isEmpty { throw Unreachable(description: "recoverydeckd closed the connection.") }
        guard let text = String(validating: packet, as: UTF8.self), let json = try? JSONValue.parse(text) else {
            throw Unreachable(description: "recoverydeckd sent something that is not JSON.")
        }
        return json
    }
}

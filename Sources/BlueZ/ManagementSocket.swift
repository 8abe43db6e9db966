import CBlueZ
import HeartRateProtocol
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's Bluetooth management channel (`HCI_CHANNEL_CONTROL`): commands to controllers and
/// events from them, coexisting with a running bluetoothd (every management socket sees the events).
/// Without `CAP_NET_ADMIN` the kernel opens it read-only: controller information works, discovery
/// and power changes answer "permission denied". Packets are coded by `HeartRateProtocol`'s
/// management codec; this type only moves them.
public final class ManagementSocket {
    public let descriptor: FileDescriptor
    /// Events read while waiting for a command's reply, handed out by `nextEvent` first.
    private var backlog: [MgmtEventPacket] = []
    private var buffer = [UInt8](repeating: 0, count: 1024)
    /// Events the kernel sent that did not decode (counted; the kernel never should).
    public private(set) var undecodable = 0

    public init() throws(BlueZError) {
        let fd = cbluez_management_socket()
        guard fd >= 0 else {
            let errno = Errno.current
            if errno.rawValue == EAFNOSUPPORT || errno.rawValue == EPROTONOSUPPORT { throw .bluetoothUnsupported }
            if errno == .permissionDenied || errno == .accessDenied { throw .missingCapability(command: "management") }
            throw .system(call: "management socket", errno: errno)
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// Takes over an already open descriptor with the management channel's packet boundaries
    /// (tests hand in one end of a `SOCK_SEQPACKET` socket pair).
    init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    deinit { descriptor.close() }

    /// Sends one command without waiting for its reply (which arrives as an event).
    public func send(_ command: MgmtCommand, to index: ControllerIndex) throws(BlueZError) {
        do {
            try descriptor.write(command.encoded(index: index))
        } catch {
            throw .system(call: "management write", errno: error)
        }
    }

    /// The next event already received, or read now without waiting; nil when there is none.
    public func nextEvent() throws(BlueZError) -> MgmtEventPacket? {
        if !backlog.isEmpty { return backlog.removeFirst() }
        return try readNow()
    }

    /// True when events wait in the backlog (the descriptor will not show them as readable).
    public var hasBacklog: Bool { !backlog.isEmpty }

    /// Reads and drops every event waiting (events the caller has no use for).
    public func discardPending() {
        backlog.removeAll()
        while (try? readNow()) ?? nil != nil {}
    }

    /// Sends a command and waits (at most `timeoutMs`) for its Command Complete; returns the reply.
    /// Other events that arrive meanwhile are kept for `nextEvent`. The kernel answers read
    /// commands at once and power changes within a second or two; this is for start-up and
    /// command-line use, never inside the daemon's loop.
    public func request(_ command: MgmtCommand, to index: ControllerIndex, timeoutMs: Int64 = 5_000)
        throws(BlueZError) -> MgmtReply
    {
        try send(command, to: index)
        let deadline = SystemClock.monotonicMs() + timeoutMs
        var kept: [MgmtEventPacket] = []
        defer { backlog += kept }
        while true {
            while let packet = try readNow() {
                if let reply = try Self.reply(to: command.opcode, index: index, in: packet) { return reply }
                kept.append(packet)
            }
            let left = deadline - SystemClock.monotonicMs()
            guard left > 0 else { throw .managementTimeout(command: command.opcode.description) }
            _ = try? ReadinessWait.readable([descriptor], timeoutMs: left)
        }
    }

    private func readNow() throws(BlueZError) -> MgmtEventPacket? {
        while true {
            let result = buffer.withUnsafeMutableBytes { b in
                Result { () throws(Errno) -> Int in try descriptor.read(into: b) }
            }
            switch result {
            case .success(let count):
                do {
                    return try MgmtEventPacket(bytes: Array(buffer[..<count]))
                } catch {
                    undecodable += 1
                }
            case .failure(let errno):
                if errno == .wouldBlock { return nil }
                throw .system(call: "management read", errno: errno)
            }
        }
    }

    /// The reply of a successful `opcode` to `index`, nil when `packet` is not its answer; throws
    /// the person's sentence for a failed one.
    static func reply(to opcode: MgmtOpcode, index: ControllerIndex, in packet: MgmtEventPacket) throws(BlueZError)
        -> MgmtReply?
    {
        guard packet.index == index else { return nil }
        switch packet.event {
        case .commandComplete(let answered, let status, let reply) where answered == opcode:
            guard status.isSuccess else { throw failure(opcode, index: index, status: status) }
            return reply
        case .commandStatus(let answered, let status) where answered == opcode:
            // Success here means "accepted, Command Complete follows"; a failure ends it now.
            guard status.isSuccess else { throw failure(opcode, index: index, status: status) }
            return nil
        default:
            return nil
        }
    }

    /// What a failed management command means for the person.
    static func failure(_ opcode: MgmtOpcode, index: ControllerIndex, status: MgmtStatus) -> BlueZError {
        let name = index == ControllerIndex.max ? "the adapter" : "hci\(index)"
        switch status {
        case .permissionDenied: return .missingCapability(command: opcode.description)
        case .notPowered: return .adapterPoweredOff(name: name)
        case .rfkilled: return .rfkillBlocked(name: name, hard: false)
        case .invalidIndex: return .adapterNotFound(name: name, available: [])
        default: return .managementFailure(command: opcode.description, status: status)
        }
    }
}

extension ControllerIndex {
    /// The index of commands about the whole interface, not one controller (mgmt-api "MGMT_INDEX_NONE").
    public static let none: ControllerIndex = 0xFFFF
}

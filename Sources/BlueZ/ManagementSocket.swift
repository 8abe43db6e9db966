import CBlueZ
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's Bluetooth management channel (`HCI_CHANNEL_CONTROL`): commands to controllers and
/// events from them, coexisting with a running bluetoothd (every management socket sees the events).
/// Without `CAP_NET_ADMIN` the kernel opens it read-only: controller information works, discovery
/// and power changes answer "permission denied".
public final class ManagementSocket {
    public let descriptor: FileDescriptor
    /// Events read while waiting for a command's reply, handed out by `nextPacket` first.
    private var backlog: [ManagementPacket] = []
    private var buffer = [UInt8](repeating: 0, count: 1024)

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

    deinit { descriptor.close() }

    func send(_ packet: ManagementPacket) throws(BlueZError) {
        do {
            try descriptor.write(packet.encoded)
        } catch {
            throw .system(call: "management write", errno: error)
        }
    }

    /// The next packet already received, or read now without waiting; nil when there is none.
    func nextPacket() throws(BlueZError) -> ManagementPacket? {
        if !backlog.isEmpty { return backlog.removeFirst() }
        return try readNow()
    }

    /// Reads and drops every packet waiting (events the caller has no use for).
    public func discardPending() {
        backlog.removeAll()
        while (try? readNow()) ?? nil != nil {}
    }

    /// Sends a command and waits (at most `timeoutMs`) for its Command Complete; returns the reply's
    /// parameters after the opcode and status. Other packets that arrive meanwhile are kept for
    /// `nextPacket`. The kernel answers read commands at once and power changes within a second or
    /// two; this is for start-up and command-line use, never inside the daemon's loop.
    func request(_ opcode: UInt16, index: UInt16, _ parameters: [UInt8] = [], timeoutMs: Int32 = 5_000)
        throws(BlueZError) -> [UInt8]
    {
        try send(ManagementPacket(code: opcode, index: index, parameters: parameters))
        let deadline = SystemClock.monotonicMs() + Int64(timeoutMs)
        var kept: [ManagementPacket] = []
        defer { backlog += kept }
        while true {
            while let packet = try readNow() {
                if let reply = try Self.reply(to: opcode, index: index, in: packet) { return reply }
                kept.append(packet)
            }
            let left = deadline - SystemClock.monotonicMs()
            guard left > 0 else { throw .managementTimeout(command: ManagementOpcode.name(opcode)) }
            var fds = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&fds, 1, Int32(left))
        }
    }

    private func readNow() throws(BlueZError) -> ManagementPacket? {
        while true {
            let result = buffer.withUnsafeMutableBytes { b in Result { () throws(Errno) -> Int in try descriptor.read(into: b) } }
            switch result {
            case .success(let count):
                // A packet that does not parse is skipped: the kernel never sends one.
                if let packet = ManagementPacket(bytes: Array(buffer[..<count])) { return packet }
            case .failure(let errno):
                if errno == .wouldBlock { return nil }
                throw .system(call: "management read", errno: errno)
            }
        }
    }

    /// The parameters of a successful reply to `opcode`, nil when `packet` is not that reply;
    /// throws the person's sentence for a failed one.
    static func reply(to opcode: UInt16, index: UInt16, in packet: ManagementPacket) throws(BlueZError) -> [UInt8]? {
        guard packet.code == ManagementEventCode.commandComplete || packet.code == ManagementEventCode.commandStatus,
            packet.index == index, packet.parameters.count >= 3, packet.parameters.u16(at: 0) == opcode
        else { return nil }
        let status = packet.parameters[2]
        guard status == ManagementStatus.success else { throw failure(opcode: opcode, index: index, status: status) }
        // Command Status with success means "accepted, complete follows" for some commands.
        if packet.code == ManagementEventCode.commandStatus { return nil }
        return Array(packet.parameters[3...])
    }

    static func failure(opcode: UInt16, index: UInt16, status: UInt8) -> BlueZError {
        let name = index == ManagementPacket.noIndex ? "the adapter" : "hci\(index)"
        switch status {
        case ManagementStatus.permissionDenied: return .missingCapability(command: ManagementOpcode.name(opcode))
        case ManagementStatus.notPowered: return .adapterPoweredOff(name: name)
        case ManagementStatus.rfkilled: return .rfkillBlocked(name: name, hard: false)
        case ManagementStatus.invalidIndex: return .adapterNotFound(name: name, available: [])
        default: return .managementFailure(command: ManagementOpcode.name(opcode), status: status)
        }
    }
}

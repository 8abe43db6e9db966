import CBlueZ
import HeartRateProtocol
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// L2CAP LE sockets on the Attribute Protocol's fixed channel (CID 4; Bluetooth Core 5.3 Vol 3
/// Part A §2.1): `socket(AF_BLUETOOTH, SOCK_SEQPACKET, BTPROTO_L2CAP)`, one ATT PDU per record.
/// All of them are non-blocking and close-on-exec.
public enum ATTSocket {
    /// The largest ATT PDU a read must hold: ATT_MTU is at most 517 (Vol 3 Part F §3.2.9).
    public static let maximumPDU = 517

    /// Opens a socket bound to `adapter` and starts connecting to `peer`. Returns the socket and
    /// whether the connection is already up (otherwise wait for it to become writable, then ask
    /// `connectionResult`). Security stays at "low": the Heart Rate service asks for none.
    public static func connect(
        from adapter: BluetoothAddress, to peer: BluetoothAddress, type: BluetoothAddressType
    ) throws(BlueZError) -> (FileDescriptor, connected: Bool) {
        let fd = try open(boundTo: adapter)
        let result = peer.littleEndianBytes.withUnsafeBufferPointer {
            cbluez_l2cap_connect(fd.rawValue, $0.baseAddress, type.rawValue, UInt16(CBLUEZ_ATT_CID))
        }
        if result == 0 { return (fd, true) }
        let errno = Errno.current
        if errno == .inProgress || errno == .wouldBlock { return (fd, false) }
        fd.close()
        throw classify(errno, call: "connect", peer: peer)
    }

    /// After a pending connect's socket turned writable (or reported an error): nil when the link
    /// is up, else why it failed.
    public static func connectionResult(_ fd: FileDescriptor, peer: BluetoothAddress) -> BlueZError? {
        let value = cbluez_socket_error(fd.rawValue)
        if value == 0 { return nil }
        let errno = value < 0 ? Errno.current : Errno(rawValue: value)
        return classify(errno, call: "connect", peer: peer)
    }

    /// A listening socket for incoming ATT connections on `adapter` (the peripheral side), whose
    /// identity address is public or, with a static address set, random.
    public static func listen(on adapter: BluetoothAddress, type: BluetoothAddressType = .lePublic)
        throws(BlueZError) -> FileDescriptor
    {
        let fd = try open(boundTo: adapter, type: type)
        guard Glibc.listen(fd.rawValue, 4) == 0 else {
            let errno = Errno.current
            fd.close()
            throw .system(call: "listen", errno: errno)
        }
        return fd
    }

    /// Accepts one pending connection: the new socket and the peer, or nil when none is waiting.
    public static func accept(_ listener: FileDescriptor) throws(BlueZError) -> (
        FileDescriptor, BluetoothAddress, BluetoothAddressType
    )? {
        var peer = [UInt8](repeating: 0, count: 6)
        var type: UInt8 = 0
        let fd = cbluez_l2cap_accept(listener.rawValue, &peer, &type)
        if fd < 0 {
            let errno = Errno.current
            if errno == .wouldBlock || errno == .interrupted { return nil }
            throw .system(call: "accept", errno: errno)
        }
        return (
            FileDescriptor(rawValue: fd), BluetoothAddress(littleEndian: peer)!,
            BluetoothAddressType(rawValue: type) ?? .lePublic
        )
    }

    /// Reads one PDU into `buffer`: its length, 0 when the peer closed the channel, nil when none is
    /// waiting. A read error means the link is gone (`ETIMEDOUT` on supervision timeout,
    /// `ECONNRESET` when the peer disconnected, `ENOTCONN` …).
    public static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        do {
            return try fd.read(into: buffer)
        } catch {
            if error == .wouldBlock { return nil }
            throw error
        }
    }

    /// Sends one PDU. Returns false when the socket's queue is full (`EAGAIN`): try again when it
    /// turns writable.
    public static func send(_ fd: FileDescriptor, _ pdu: [UInt8]) throws(Errno) -> Bool {
        do {
            try fd.write(pdu)
            return true
        } catch {
            if error == .wouldBlock { return false }
            throw error
        }
    }

    private static func open(boundTo adapter: BluetoothAddress, type: BluetoothAddressType = .lePublic)
        throws(BlueZError) -> FileDescriptor
    {
        let raw = cbluez_l2cap_socket()
        guard raw >= 0 else {
            let errno = Errno.current
            if errno.rawValue == EAFNOSUPPORT || errno.rawValue == EPROTONOSUPPORT { throw .bluetoothUnsupported }
            throw .system(call: "socket", errno: errno)
        }
        let fd = FileDescriptor(rawValue: raw)
        let bound = adapter.littleEndianBytes.withUnsafeBufferPointer {
            cbluez_l2cap_bind(raw, $0.baseAddress, type.rawValue, UInt16(CBLUEZ_ATT_CID))
        }
        guard bound == 0 else {
            let errno = Errno.current
            fd.close()
            if errno.rawValue == EADDRNOTAVAIL { throw .noAdapter }
            throw .system(call: "bind", errno: errno)
        }
        return fd
    }

    /// Turns a connect failure into what the person can act on.
    static func classify(_ errno: Errno, call: String, peer: BluetoothAddress) -> BlueZError {
        switch errno {
        case .busy: .attChannelBusy(address: peer)
        case .rfkilled: .rfkillBlocked(name: "", hard: false)
        case .timedOut, .hostDown, .connectionRefused, .connectionReset:
            .strapUnreachable(address: peer, seconds: 0)
        default:
            if errno.rawValue == EHOSTUNREACH { .noAdapter } else { .system(call: call, errno: errno) }
        }
    }
}

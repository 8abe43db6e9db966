import HeartRateProtocol
import Platform

/// How a `StrapLink` opens its ATT bearer. The kernel's L2CAP sockets in the product; tests hand
/// in one end of a `socketpair(AF_UNIX, SOCK_SEQPACKET)` standing in for the strap.
public protocol ATTTransport {
    /// Starts a connection: the non-blocking descriptor and whether it is already connected
    /// (otherwise it turns writable when the attempt ends; then `connectionResult` says how).
    func connect(from adapter: BluetoothAddress, to strap: BluetoothAddress, type: BluetoothAddressType)
        throws(BlueZError) -> (FileDescriptor, connected: Bool)
    /// After the descriptor turned writable or reported an error: nil when connected.
    func connectionResult(_ fd: FileDescriptor, strap: BluetoothAddress) -> BlueZError?
}

/// The kernel's L2CAP LE socket on the ATT channel (CID 4).
public struct KernelATTTransport: ATTTransport {
    public init() {}

    public func connect(from adapter: BluetoothAddress, to strap: BluetoothAddress, type: BluetoothAddressType)
        throws(BlueZError) -> (FileDescriptor, connected: Bool)
    {
        try ATTSocket.connect(from: adapter, to: strap, type: type)
    }

    public func connectionResult(_ fd: FileDescriptor, strap: BluetoothAddress) -> BlueZError? {
        ATTSocket.connectionResult(fd, peer: strap)
    }
}

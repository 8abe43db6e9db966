import CBlueZ
import HeartRateProtocol
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// A raw HCI socket on one controller (`HCI_CHANNEL_RAW`), for the virtual strap's peripheral-side
/// commands that the management interface does not offer (asking for new connection parameters,
/// disconnecting with a reason of its own). Needs `CAP_NET_RAW`; packets are coded by
/// `HeartRateProtocol.PeripheralHCI`. Non-blocking.
public final class HCIRawSocket {
    public let descriptor: FileDescriptor
    private var buffer = [UInt8](repeating: 0, count: 1100)

    public init(controller index: ControllerIndex) throws(BlueZError) {
        let fd = cbluez_hci_raw_socket(index)
        guard fd >= 0 else {
            let errno = Errno.current
            if errno == .permissionDenied || errno == .accessDenied { throw .missingCapability(command: "raw HCI") }
            throw .system(call: "raw HCI socket", errno: errno)
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }

    public func send(_ packet: [UInt8]) throws(BlueZError) {
        do {
            _ = try descriptor.write(packet)
        } catch {
            throw .system(call: "raw HCI write", errno: error)
        }
    }

    /// The next packet waiting, nil when there is none.
    public func receive() -> [UInt8]? {
        let n = buffer.withUnsafeMutableBytes { read(descriptor.rawValue, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buffer[..<n]) : nil
    }

    /// The HCI connection handle under a connected L2CAP socket; nil when the kernel will not say.
    public static func connectionHandle(of l2cap: FileDescriptor) -> UInt16? {
        let handle = cbluez_l2cap_connection_handle(l2cap.rawValue)
        return handle >= 0 ? UInt16(handle) : nil
    }
}

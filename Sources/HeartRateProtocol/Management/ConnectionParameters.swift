/// LE connection parameters in the units the Link Layer and the management interface use:
/// intervals in 1.25 ms, supervision timeout in 10 ms, latency in connection events
/// (Bluetooth Core 5.3 Vol 4 Part E §7.8.12).
public struct LEConnectionParameters: Hashable, Sendable, CustomStringConvertible {
    public var minInterval: UInt16
    public var maxInterval: UInt16
    public var latency: UInt16
    public var supervisionTimeout: UInt16

    public init(minInterval: UInt16, maxInterval: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.minInterval = minInterval
        self.maxInterval = maxInterval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }

    /// What the box loads for its strap before connecting (mgmt Load Connection Parameters).
    ///
    /// Polar straps ask, about 30 s after connecting, for min 250, max 400 (312.5–500 ms), latency 0,
    /// timeout 600 (6 s), and drop the link with 0x3B when refused; Linux refuses a request whose max
    /// exceeds the max it connected with (DESIGN §5). So:
    /// - max 400: exactly the highest interval straps ask for, so their request is inside the range;
    /// - min 24 (30 ms): the kernel's own default minimum, so the controller may still open the link
    ///   fast: discovery of a real H10's table takes a few dozen ATT round trips, one per interval or
    ///   two, seconds at 30 ms but tens of seconds at 500 ms (a controller may pick anywhere in the
    ///   range; btvirt picks the top);
    /// - latency 0: the strap asks for 0, and every event carries the second's notification, so the
    ///   RR reaches the box within one interval;
    /// - timeout 600 (6 s): what the strap asks for; the kernel requires timeout × 4 > max × (1 +
    ///   latency), so with max 400 nothing under 100 would be accepted. It is also how long a lost
    ///   strap takes to be noticed; the strap's request would bring it to 6 s anyway.
    /// The strap then settles at 312.5–500 ms, which is what saves its coin cell.
    public static let strap = LEConnectionParameters(
        minInterval: 24, maxInterval: 400, latency: 0, supervisionTimeout: 600)

    /// What Polar straps ask for after connecting (btmon traces; DESIGN §5).
    public static let polarRequest = LEConnectionParameters(
        minInterval: 250, maxInterval: 400, latency: 0, supervisionTimeout: 600)

    /// Whether the kernel would accept these (Linux `hci_check_conn_params`, after the ranges of
    /// Bluetooth Core 5.3 Vol 4 Part E §7.8.12): intervals 6…3200, min ≤ max, timeout 10…3200 and
    /// longer than the max interval, latency ≤ 499 and short enough for the timeout.
    public var isValid: Bool {
        guard minInterval >= 6, minInterval <= maxInterval, maxInterval <= 3200 else { return false }
        guard supervisionTimeout >= 10, supervisionTimeout <= 3200 else { return false }
        guard UInt32(maxInterval) < UInt32(supervisionTimeout) * 8 else { return false }
        let maxLatency = Int(UInt32(supervisionTimeout) * 4 / UInt32(maxInterval)) - 1
        return latency <= 499 && Int(latency) <= maxLatency
    }

    /// "interval 30–500 ms, latency 0, timeout 6000 ms".
    public var description: String {
        func ms(_ units: UInt16) -> String {
            let hundredths = Int(units) * 125  // 1.25 ms is exact in hundredths
            let (whole, fraction) = (hundredths / 100, hundredths % 100)
            if fraction == 0 { return "\(whole)" }
            return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction)"
        }
        return "interval \(ms(minInterval))–\(ms(maxInterval)) ms, latency \(latency), "
            + "timeout \(Int(supervisionTimeout) * 10) ms"
    }

    func append(to p: inout [UInt8]) {
        p.appendLE(minInterval)
        p.appendLE(maxInterval)
        p.appendLE(latency)
        p.appendLE(supervisionTimeout)
    }

    init?(reading r: inout ByteReader) {
        guard let min = r.u16(), let max = r.u16(), let latency = r.u16(), let timeout = r.u16() else { return nil }
        self.init(minInterval: min, maxInterval: max, latency: latency, supervisionTimeout: timeout)
    }
}

/// One device's parameters (mgmt-api "Load Connection Parameters" Param, and the body of "New
/// Connection Parameter"): address (6), address type (1), min, max, latency, timeout (2 each).
public struct DeviceConnectionParameters: Hashable, Sendable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    public var parameters: LEConnectionParameters

    public static let encodedLength = 15

    public init(address: BluetoothAddress, addressType: BluetoothAddressType, parameters: LEConnectionParameters) {
        self.address = address
        self.addressType = addressType
        self.parameters = parameters
    }
}

extension DeviceConnectionParameters {
    /// Reads one Load Connection Parameters entry; nil when short, throws for an unknown address type.
    init?(reading r: inout ByteReader) throws(MgmtDecodingError) {
        guard let bytes = r.take(6), let address = BluetoothAddress(littleEndian: bytes), let t = r.u8() else {
            return nil
        }
        guard let type = BluetoothAddressType(rawValue: t) else { throw .unknownAddressType(t) }
        guard let parameters = LEConnectionParameters(reading: &r) else { return nil }
        self.init(address: address, addressType: type, parameters: parameters)
    }
}

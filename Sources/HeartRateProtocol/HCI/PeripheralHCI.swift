/// The few HCI packets a peripheral needs to ask its central for new connection parameters and to
/// end the link with a reason of its own, which the management interface does not offer: for the
/// virtual strap's raw HCI socket (packet type octet first, as the kernel's raw channel carries
/// them; Bluetooth Core 5.3 Vol 4 Part E §5.4).
public enum PeripheralHCI {
    /// HCI packet types (Vol 4 Part A §2).
    static let commandPacket: UInt8 = 0x01
    static let aclPacket: UInt8 = 0x02
    static let eventPacket: UInt8 = 0x04

    /// LE signalling channel (Vol 3 Part A §2.1) and its Connection Parameter Update codes (§4.20, §4.21).
    static let leSignallingCID: UInt16 = 0x0005
    static let parameterUpdateRequest: UInt8 = 0x12
    static let parameterUpdateResponse: UInt8 = 0x13

    /// HCI LE Connection Update (OGF 0x08, OCF 0x0013; Vol 4 Part E §7.8.18). CE lengths 0.
    public static func leConnectionUpdate(handle: UInt16, _ p: LEConnectionParameters) -> [UInt8] {
        var params: [UInt8] = []
        params.appendLE(handle & 0x0FFF)
        p.append(to: &params)
        params += [0, 0, 0, 0]
        return command(0x2013, params)
    }

    /// HCI Disconnect (OGF 0x01, OCF 0x0006; Vol 4 Part E §7.1.6) with `reason`, e.g. 0x3B
    /// Unacceptable Connection Parameters (Vol 1 Part F §2.59).
    public static func disconnect(handle: UInt16, reason: UInt8) -> [UInt8] {
        var params: [UInt8] = []
        params.appendLE(handle & 0x0FFF)
        params.append(reason)
        return command(0x0406, params)
    }

    /// An L2CAP Connection Parameter Update Request on CID 5 in one ACL packet (Vol 3 Part A
    /// §4.20; ACL header Vol 4 Part E §5.4.2, packet boundary "first non-flushable" 0b00).
    public static func parameterUpdateRequest(handle: UInt16, identifier: UInt8, _ p: LEConnectionParameters)
        -> [UInt8]
    {
        var signal: [UInt8] = [parameterUpdateRequest, identifier]
        signal.appendLE(UInt16(8))
        p.append(to: &signal)
        var l2cap: [UInt8] = []
        l2cap.appendLE(UInt16(signal.count))
        l2cap.appendLE(leSignallingCID)
        l2cap += signal
        var out: [UInt8] = [aclPacket]
        out.appendLE(handle & 0x0FFF)
        out.appendLE(UInt16(l2cap.count))
        return out + l2cap
    }

    private static func command(_ opcode: UInt16, _ params: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [commandPacket]
        out.appendLE(opcode)
        out.append(UInt8(params.count))
        return out + params
    }

    /// What the virtual strap reads back: the outcome of its request, or the link's end.
    public enum Input: Hashable, Sendable {
        /// LE Connection Update Complete (LE Meta subevent 0x03; Vol 4 Part E §7.7.65.3): status 0
        /// is the new parameters in force; otherwise the central refused (e.g. 0x1E, 0x3B).
        case connectionUpdateComplete(status: UInt8, handle: UInt16, interval: UInt16, latency: UInt16, timeout: UInt16)
        /// Connection Parameter Update Response (Vol 3 Part A §4.21): result 0 accepted, 1 rejected.
        case parameterUpdateResponse(handle: UInt16, identifier: UInt8, accepted: Bool)
        /// Command Status (Vol 4 Part E §7.7.15) for `opcode`: a non-zero status refuses the command.
        case commandStatus(status: UInt8, opcode: UInt16)
        /// Disconnection Complete (Vol 4 Part E §7.7.5).
        case disconnectionComplete(handle: UInt16, reason: UInt8)
    }

    /// Reads one packet from the raw channel; nil for anything else, and for a packet too short
    /// for what its header says (counted by the caller, never a crash).
    public static func input(_ bytes: [UInt8]) -> Input? {
        var r = ByteReader(bytes)
        guard let type = r.u8() else { return nil }
        switch type {
        case eventPacket:
            guard let code = r.u8(), let length = r.u8(), Int(length) == r.remaining else { return nil }
            switch code {
            case 0x3E:
                guard r.u8() == 0x03, r.remaining == 9, let status = r.u8(), let handle = r.u16(),
                    let interval = r.u16(), let latency = r.u16(), let timeout = r.u16()
                else { return nil }
                return .connectionUpdateComplete(
                    status: status, handle: handle & 0x0FFF, interval: interval, latency: latency, timeout: timeout)
            case 0x0F:
                guard r.remaining == 4, let status = r.u8(), r.u8() != nil, let opcode = r.u16() else { return nil }
                return .commandStatus(status: status, opcode: opcode)
            case 0x05:
                guard r.remaining == 4, r.u8() != nil, let handle = r.u16(), let reason = r.u8() else { return nil }
                return .disconnectionComplete(handle: handle & 0x0FFF, reason: reason)
            default:
                return nil
            }
        case aclPacket:
            guard let handleFlags = r.u16(), let length = r.u16(), Int(length) == r.remaining,
                let l2Length = r.u16(), let cid = r.u16(), Int(l2Length) == r.remaining, cid == leSignallingCID,
                let code = r.u8(), code == parameterUpdateResponse, let identifier = r.u8(), r.u16() == 2,
                let result = r.u16(), r.remaining == 0
            else { return nil }
            return .parameterUpdateResponse(handle: handleFlags & 0x0FFF, identifier: identifier, accepted: result == 0)
        default:
            return nil
        }
    }
}

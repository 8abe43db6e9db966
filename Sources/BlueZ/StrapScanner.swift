import HeartRateProtocol
import Platform

/// A strap seen while scanning: name, address and address type from its own report (DESIGN §5:
/// H10 firmware before mid-2024 uses a random static address, later a public one), signal strength.
public struct StrapCandidate: Hashable, Sendable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    public var name: String?
    public var rssi: Int8
    public var match: StrapMatch
    public var lastSeenMs: Int64

    public init(address: BluetoothAddress, addressType: BluetoothAddressType, name: String?, rssi: Int8,
        match: StrapMatch, lastSeenMs: Int64)
    {
        self.address = address
        self.addressType = addressType
        self.name = name
        self.rssi = rssi
        self.match = match
        self.lastSeenMs = lastSeenMs
    }
}

/// LE discovery through the management interface (Start Discovery for LE, Device Found events
/// with EIR data), keeping the advertisers that look like a strap: name prefix `Polar H10` or the
/// Heart Rate service (DESIGN §5). Follows the event-loop contract: watch `descriptor`, call
/// `onReadable`, honour `nextDeadlineMs`.
///
/// The kernel ends an LE discovery after about ten seconds; the scanner starts it again while it
/// runs. If another program (bluetoothd) is already discovering, the kernel says "busy": its Device
/// Found events reach every management socket, so the scanner listens to those and retries later.
public final class StrapScanner {
    public enum Event: Hashable, Sendable {
        /// A strap seen for the first time, or seen again with a name it lacked.
        case found(StrapCandidate)
        /// Discovery cannot run: the sentence says why.
        case failed(BlueZError)
    }

    public let controller: Controller
    public private(set) var candidates: [BluetoothAddress: StrapCandidate] = [:]
    private let socket: ManagementSocket
    private var scanning = false
    private var discovering = false
    private var retryAtMs: Int64?
    private var pendingStart = false
    /// Advertising and scan response arrive as separate reports, the name often only in the
    /// latter: what each address has shown so far, kept small (a name and one flag).
    private var names: [BluetoothAddress: String] = [:]
    private var heartRateAdvertisers: Set<BluetoothAddress> = []

    /// Address types to discover: LE public and LE random (mgmt-api.txt "Start Discovery": bits 1, 2).
    static let lowEnergyTypes: UInt8 = 0x06
    static let retryMs: Int64 = 2_000

    public init(controller: Controller, socket: ManagementSocket) {
        self.controller = controller
        self.socket = socket
    }

    public var descriptor: FileDescriptor { socket.descriptor }
    public var nextDeadlineMs: Int64? { scanning ? retryAtMs : nil }

    /// Starts discovering; results come through `onReadable`.
    public func start(nowMs: Int64) -> [Event] {
        scanning = true
        return sendStart(nowMs: nowMs)
    }

    /// Stops discovering (and tells the kernel, if this scanner started it).
    public func stop() {
        scanning = false
        retryAtMs = nil
        if discovering {
            try? socket.send(
                ManagementPacket(code: ManagementOpcode.stopDiscovery, index: controller.index, parameters: [Self.lowEnergyTypes]))
            discovering = false
        }
    }

    public func onDeadline(nowMs: Int64) -> [Event] {
        guard scanning, let at = retryAtMs, nowMs >= at else { return [] }
        retryAtMs = nil
        return sendStart(nowMs: nowMs)
    }

    public func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [Event] { onReadable(nowMs: nowMs) }

    public func onReadable(nowMs: Int64) -> [Event] {
        var events: [Event] = []
        while true {
            let packet: ManagementPacket?
            do {
                packet = try socket.nextPacket()
            } catch {
                return events + [.failed(error)]
            }
            guard let packet else { break }
            events += handle(packet, nowMs: nowMs)
        }
        return events
    }

    private func sendStart(nowMs: Int64) -> [Event] {
        do {
            try socket.send(
                ManagementPacket(code: ManagementOpcode.startDiscovery, index: controller.index, parameters: [Self.lowEnergyTypes]))
            pendingStart = true
            return []
        } catch {
            return [.failed(error)]
        }
    }

    func handle(_ packet: ManagementPacket, nowMs: Int64) -> [Event] {
        guard packet.index == controller.index else { return [] }
        switch packet.code {
        case ManagementEventCode.commandComplete, ManagementEventCode.commandStatus:
            guard pendingStart, packet.parameters.count >= 3,
                packet.parameters.u16(at: 0) == ManagementOpcode.startDiscovery
            else { return [] }
            pendingStart = false
            let status = packet.parameters[2]
            if status == ManagementStatus.success {
                discovering = true
                return []
            }
            if status == ManagementStatus.busy {
                // Someone else is discovering; their reports reach us too.
                retryAtMs = nowMs + Self.retryMs
                return []
            }
            scanning = false
            return [.failed(ManagementSocket.failure(opcode: ManagementOpcode.startDiscovery, index: packet.index, status: status))]
        case ManagementEventCode.discovering:
            guard packet.parameters.count >= 2 else { return [] }
            if packet.parameters[1] == 0 {
                discovering = false
                // The kernel's LE discovery ran its course; go on while asked to scan.
                if scanning && !pendingStart && retryAtMs == nil { return sendStart(nowMs: nowMs) }
            }
            return []
        case ManagementEventCode.deviceFound:
            return deviceFound(packet.parameters, nowMs: nowMs)
        default:
            return []
        }
    }

    /// Device Found: address (6), address type (1), RSSI (1), flags (4), EIR length (2), EIR.
    private func deviceFound(_ p: [UInt8], nowMs: Int64) -> [Event] {
        guard p.count >= 14, let address = BluetoothAddress(littleEndian: Array(p[0..<6])),
            let type = BluetoothAddressType(rawValue: p[6]), type != .bredr
        else { return [] }
        let rssi = Int8(bitPattern: p[7])
        let length = Int(p.u16(at: 12))
        guard p.count >= 14 + length, let data = try? AdvertisingData(bytes: Array(p[14..<(14 + length)])) else {
            return []
        }
        if let name = data.localName { names[address] = name }
        if data.serviceUUIDs.contains(.heartRate) { heartRateAdvertisers.insert(address) }
        // What the address has shown across its reports, matched by the protocol's own rule.
        var shown: [AdvertisingField] = []
        if let name = names[address] { shown.append(.localName(name, complete: true)) }
        if heartRateAdvertisers.contains(address) { shown.append(.serviceUUIDs16([0x180D], complete: false)) }
        guard let match = AdvertisingData(fields: shown).strapMatch else { return [] }
        let candidate = StrapCandidate(
            address: address, addressType: type, name: names[address], rssi: rssi, match: match, lastSeenMs: nowMs)
        let previous = candidates[address]
        candidates[address] = candidate
        if previous == nil || (previous?.name == nil && candidate.name != nil) { return [.found(candidate)] }
        return []
    }
}

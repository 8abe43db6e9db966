import HeartRateProtocol
import Platform

/// A strap seen while scanning: name, address and address type from its own report (DESIGN §5:
/// H10 firmware before mid-2024 uses a random static address, later a public one), signal strength.
public struct StrapCandidate: Hashable, Sendable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    public var name: String?
    /// dBm; nil when the controller does not report it.
    public var rssi: Int8?
    public var match: StrapMatch
    public var lastSeenMs: Int64

    public init(
        address: BluetoothAddress, addressType: BluetoothAddressType, name: String?, rssi: Int8?,
        match: StrapMatch, lastSeenMs: Int64
    ) {
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
        let events = sendStart(nowMs: nowMs)
        // Events kept while the socket answered earlier commands do not make it readable again.
        return socket.hasBacklog ? events + onReadable(nowMs: nowMs) : events
    }

    /// Stops discovering (and tells the kernel, if this scanner started a discovery).
    public func stop() {
        scanning = false
        retryAtMs = nil
        if discovering || pendingStart {
            try? socket.send(.stopDiscovery(.le), to: controller.index)
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
            let packet: MgmtEventPacket?
            do {
                packet = try socket.nextEvent()
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
            try socket.send(.startDiscovery(.le), to: controller.index)
            pendingStart = true
            return []
        } catch {
            return [.failed(error)]
        }
    }

    func handle(_ packet: MgmtEventPacket, nowMs: Int64) -> [Event] {
        guard packet.index == controller.index else { return [] }
        switch packet.event {
        case .commandComplete(.startDiscovery, let status, _), .commandStatus(.startDiscovery, let status):
            guard pendingStart else { return [] }
            pendingStart = false
            if status.isSuccess {
                // A start that completes after `stop` (the kernel refuses to stop a discovery still
                // starting): stop it now.
                if !scanning { try? socket.send(.stopDiscovery(.le), to: controller.index) } else { discovering = true }
                return []
            }
            if status == .busy {
                // Someone else is discovering; their reports reach us too.
                retryAtMs = nowMs + Self.retryMs
                return []
            }
            scanning = false
            return [.failed(ManagementSocket.failure(.startDiscovery, index: packet.index, status: status))]
        case .discovering(_, let active):
            if !active {
                discovering = false
                // The kernel's LE discovery ran its course; go on while asked to scan.
                if scanning && !pendingStart && retryAtMs == nil { return sendStart(nowMs: nowMs) }
            }
            return []
        case .deviceFound(let report):
            return deviceFound(report, nowMs: nowMs)
        default:
            return []
        }
    }

    private func deviceFound(_ report: DeviceFound, nowMs: Int64) -> [Event] {
        guard report.addressType != .bredr, let data = try? report.advertisingData() else { return [] }
        let address = report.address
        if let name = data.localName { names[address] = name }
        if data.serviceUUIDs.contains(.heartRate) { heartRateAdvertisers.insert(address) }
        // What the address has shown across its reports, matched by the protocol's own rule.
        var shown: [AdvertisingField] = []
        if let name = names[address] { shown.append(.localName(name, complete: true)) }
        if heartRateAdvertisers.contains(address) { shown.append(.serviceUUIDs16([0x180D], complete: false)) }
        guard let match = AdvertisingData(fields: shown).strapMatch else { return [] }
        let candidate = StrapCandidate(
            address: address, addressType: report.addressType, name: names[address], rssi: report.rssi, match: match,
            lastSeenMs: nowMs)
        let previous = candidates[address]
        candidates[address] = candidate
        if previous == nil || (previous?.name == nil && candidate.name != nil) { return [.found(candidate)] }
        return []
    }
}

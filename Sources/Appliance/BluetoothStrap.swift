import BlueZ
import HeartRateProtocol
import Platform
import RecoveryCore
import Store

/// The paired Polar H10 over raw BlueZ sockets (DESIGN §5), through the `StrapLink`. The strap's address
/// is read from the configuration or, failing that, from what `recoverydeck pair` stored, each time a
/// session connects, so pairing a new strap needs no restart.
final class BluetoothStrap: StrapSource {
    let configuration: DaemonConfiguration
    let store: Store
    let logger: Logger
    private var link: StrapLink?
    private var linkAddress: BluetoothAddress?
    private var announced = false
    /// Changes whenever `descriptors` do (a new link for a new strap).
    private(set) var generation = 0

    init(configuration: DaemonConfiguration, store: Store, logger: Logger) throws(DaemonError) {
        self.configuration = configuration
        self.store = store
        self.logger = logger
        if let adapter = configuration.adapter, Controller.index(named: adapter) == nil,
            BluetoothAddress(adapter) == nil
        {
            throw .configuration("adapter \"\(adapter)\" is neither a controller name such as hci0 nor an address.")
        }
    }

    var descriptors: [FileDescriptor] { link?.descriptors ?? [] }
    func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [StrapEvent] {
        translate(link?.onReadable(fd, nowMs: nowMs) ?? [])
    }
    var nextDeadlineMs: Int64? { link?.nextDeadlineMs }
    func onDeadline(nowMs: Int64) -> [StrapEvent] { translate(link?.onDeadline(nowMs: nowMs) ?? []) }

    var statusLine: String {
        guard let link else { return "strap not connected" }
        return "strap \(linkAddress.map { "\($0)" } ?? "?"): \(link.state.name)"
    }

    /// A setting `recoverydeck pair` stored; nil, with a warning, when the database cannot be read.
    private func storedSetting(_ key: SettingKey) -> String? {
        do { return try store.setting(key) } catch {
            logger.warning("cannot read \(key.rawValue) from the database: \(error)")
            return nil
        }
    }

    func connect(nowMs: Int64) -> [StrapEvent] {
        let addressText = configuration.strapAddress ?? storedSetting(.strapAddress)
        guard let addressText, let address = BluetoothAddress(addressText) else {
            return [.failed(.noStrapPaired, reason: "no strap address configured or paired")]
        }
        let typeText = configuration.strapAddressType ?? storedSetting(.strapAddressType)
        // H10 firmware before mid-2024 uses a random static address (DESIGN §5); the address says which.
        let type: BluetoothAddressType =
            typeText == "public"
            ? .lePublic : (typeText == "random" || address.isStaticRandomForm ? .leRandom : .lePublic)
        if link == nil || linkAddress != address {
            _ = link?.stop()
            do {
                link = try StrapLink(.init(adapter: try adapterAddress(), strap: address, strapType: type))
            } catch {
                return [.failed(fault(for: error), reason: error.description)]
            }
            linkAddress = address
            generation += 1
        }
        guard let link else { return [] }
        if link.state.isLive {
            return [.connected(address: "\(address)", batteryPercent: link.batteryPercent.map(Int.init))]
        }
        announced = false
        return translate(link.start(nowMs: nowMs))
    }

    /// The controller to connect from: the configured one (`hciN` or its address), else the first
    /// powered one with LE on, found through the management interface (which needs CAP_NET_ADMIN).
    /// Without that capability and with nothing configured, the kernel picks (BDADDR_ANY).
    private func adapterAddress() throws(BlueZError) -> BluetoothAddress {
        if let name = configuration.adapter, let address = BluetoothAddress(name) { return address }
        do {
            let socket = try ManagementSocket()
            return try Controller.select(configuration.adapter, socket: socket).address
        } catch {
            guard configuration.adapter == nil, case .missingCapability = error else { throw error }
            logger.info("no CAP_NET_ADMIN to choose a Bluetooth controller; the kernel picks one")
            return BluetoothAddress(rawValue: 0)
        }
    }

    func disconnect() -> [StrapEvent] {
        announced = false
        _ = link?.stop()
        return []
    }

    func personStands(atMs: Int64) {}

    func close() {
        _ = link?.stop()
        link = nil
    }

    private func translate(_ events: [StrapLinkEvent]) -> [StrapEvent] {
        var out: [StrapEvent] = []
        for event in events {
            switch event {
            case .state(let state):
                switch state {
                case .live, .rrOK, .heartRateOnly:
                    if !announced {
                        announced = true
                        out.append(
                            .connected(
                                address: linkAddress.map { "\($0)" }, batteryPercent: link?.batteryPercent.map(Int.init)
                            ))
                    }
                    if case .heartRateOnly = state, let message = state.message { logger.warning(message) }
                case .lost(let loss):
                    if announced { out.append(.disconnected(reason: loss.description)) }
                    announced = false
                case .failed(let error):
                    announced = false
                    out.append(.failed(fault(for: error), reason: error.description))
                case .idle, .connecting, .discovering, .reconnecting:
                    break
                }
            case .sample(let sample):
                out.append(.sample(bpm: sample.bpm ?? 0, rr: sample.rrRaw))
            case .battery(let percent):
                logger.info("strap battery \(percent) %")
            case .firmware(let revision):
                logger.info("strap firmware \(revision)")
            case .connectFailed(let error):
                let fault = fault(for: error)
                if fault == .bluetoothUnavailable {
                    // Retrying cannot bring an adapter back: end the session now, with the reason.
                    _ = link?.stop()
                    out.append(.failed(fault, reason: error.description))
                } else {
                    logger.info("strap connection attempt failed: \(error)")
                }
            case .malformed(let input):
                logger.debug("malformed input from the strap dropped: \(input)")
            }
        }
        return out
    }

    private func fault(for error: BlueZError) -> MorningFault {
        switch error {
        case .bluetoothUnsupported, .noAdapter, .adapterNotFound, .rfkillBlocked, .adapterPoweredOff,
            .lowEnergyDisabled, .missingCapability, .system:
            .bluetoothUnavailable
        default:
            .strapNotFound
        }
    }
}

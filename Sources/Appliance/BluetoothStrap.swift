import BoxConfiguration
import BlueZ
import HeartRateProtocol
import Platform
import RecoveryCore

/// The paired Polar H10 over raw BlueZ sockets (DESIGN §5), through the `StrapLink`. The daemon tells it
/// the strap's address each time a session connects, so pairing a new strap needs no restart.
final class BluetoothStrap: StrapSource {
    let configuration: DaemonConfiguration
    let logger: Logger
    private var link: StrapLink?
    private var linkAddress: BluetoothAddress?
    private var announced = false
    /// The controller watch's socket and the link's descriptor (a new one for each new link).
    private let members: ReadinessSet

    /// Finds the controller through the management interface, read by the daemon's loop (never waited
    /// for); nil when the management interface cannot be opened.
    private let controllers: ControllerWatch?
    /// The adapter to bind to when no management exchange is possible, or why there is none to use.
    private var fixedAdapter: Result<BluetoothAddress, BlueZError>?
    /// A connection asked for while the controller was still being found, to this address: made once it is.
    private var waiting: StrapAddress?

    /// Opens the management socket and starts finding the controller (before the daemon's loop runs;
    /// the answers are read by the loop). `openManagement` stands in for the kernel's socket in tests.
    init(
        configuration: DaemonConfiguration, logger: Logger, nowMs: Int64,
        openManagement: () throws(BlueZError) -> ManagementSocket = { () throws(BlueZError) in
            try ManagementSocket()
        }
    ) throws(DaemonError) {
        self.configuration = configuration
        self.logger = logger
        do { members = try ReadinessSet() } catch { throw .startup("Cannot set up the strap's event set: \(error).") }
        if let adapter = configuration.adapter, Controller.index(named: adapter) == nil,
            BluetoothAddress(adapter) == nil
        {
            throw .configuration("adapter \"\(adapter)\" is neither a controller name such as hci0 nor an address.")
        }
        // An adapter given by its address is still looked up (by address) for its index: the strap's
        // connection parameters are loaded through the management interface by index (DESIGN §5).
        do {
            // Powers the controller on if it is off: without bluetoothd nothing else does (deploy/README.md).
            let watch = ControllerWatch(socket: try openManagement(), name: configuration.adapter, powersOn: true)
            watch.resolve(nowMs: nowMs)
            controllers = watch
        } catch {
            controllers = nil
            if let name = configuration.adapter, let address = BluetoothAddress(name) {
                fixedAdapter = .success(address)
            } else {
                fixedAdapter = .failure(error)
            }
        }
        if let controllers {
            do { try members.watch(controllers.descriptor) } catch {
                throw .startup("Cannot watch the Bluetooth management socket: \(error).")
            }
        }
    }

    var readiness: ReadinessSet? { members }

    func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [StrapEvent] {
        if let controllers, fd == controllers.descriptor {
            let decided = controllers.onReadable(nowMs: nowMs)
            for name in controllers.takePoweredOn() {
                logger.notice("Bluetooth adapter \(name) was off: powering it on, with LE (no other program here did)")
            }
            return decided == nil ? [] : adapterDecided(nowMs: nowMs)
        }
        let events = translate(link?.onReadable(fd, nowMs: nowMs) ?? [])
        logParameterState()
        if let failed = link, let error = failed.readinessFailure {
            // The link's own epoll set is gone: stop watching it (it would be readable for ever) and make a
            // new link at the next connect.
            logger.error("the strap link's event set failed (\(error)): a new link is made at the next connect")
            dropLink()
        }
        return events
    }

    /// Forgets the link: out of the set before its descriptor is closed.
    private func dropLink() {
        guard let old = link else { return }
        members.unwatch(old.descriptor)
        _ = old.stop()
        link = nil
        linkAddress = nil
    }

    private var loggedParameterState: StrapLink.ParameterState?

    /// The strap's connection parameters as the kernel answered (loaded, refused, changed at the
    /// strap's request), once per change: what explains a strap that drops the link.
    private func logParameterState() {
        guard let state = link?.parameterState, state != loggedParameterState else { return }
        loggedParameterState = state
        switch state {
        case .refused: logger.warning(state.description)
        case .notLoaded, .sent: break
        case .loaded, .updatedByStrap: logger.info(state.description)
        }
    }
    var nextDeadlineMs: Int64? { EventLoop.earliest([link?.nextDeadlineMs, controllers?.nextDeadlineMs]) }
    func onDeadline(nowMs: Int64) -> [StrapEvent] {
        var events: [StrapEvent] = []
        if let due = controllers?.nextDeadlineMs, due <= nowMs, controllers?.onDeadline(nowMs: nowMs) != nil {
            events += adapterDecided(nowMs: nowMs)
        }
        if let due = link?.nextDeadlineMs, due <= nowMs { events += translate(link?.onDeadline(nowMs: nowMs) ?? []) }
        return events
    }

    /// The controller was found (or cannot be): the connection asked for meanwhile is made now.
    private func adapterDecided(nowMs: Int64) -> [StrapEvent] {
        guard let address = waiting else { return [] }
        waiting = nil
        return connect(to: address, nowMs: nowMs, answerIsFresh: true)
    }

    var statusLine: String {
        guard let link else { return "strap not connected" }
        return "strap \(linkAddress.map { "\($0)" } ?? "?"): \(link.state.name)"
    }

    func connect(to strap: StrapAddress, nowMs: Int64) -> [StrapEvent] {
        connect(to: strap, nowMs: nowMs, answerIsFresh: false)
    }

    /// `answerIsFresh`: the management interface has just answered, so a failure it gave is today's.
    private func connect(to strap: StrapAddress, nowMs: Int64, answerIsFresh: Bool) -> [StrapEvent] {
        guard let addressText = strap.address, let address = BluetoothAddress(addressText) else {
            return [.failed(.noStrapPaired, reason: "no strap address configured or paired")]
        }
        // H10 firmware before mid-2024 uses a random static address (DESIGN §5); the address says which.
        let type = strap.type.flatMap(BluetoothAddressType.init(word:)) ?? address.guessedType
        if link == nil || linkAddress != address {
            let adapter: (address: BluetoothAddress, index: ControllerIndex?)
            switch self.adapter() {
            case nil:
                // Still asking the kernel which controller: connect when it has answered.
                waiting = strap
                return []
            case .failure(let error)?:
                if !answerIsFresh, let controllers, case .failed = controllers.state {
                    // An earlier session's answer: ask again (the adapter may be back), still without waiting.
                    controllers.resolve(nowMs: nowMs)
                    waiting = strap
                    return []
                }
                return [.failed(fault(for: error), reason: error.description)]
            case .success(let found)?:
                adapter = found
            }
            dropLink()
            do {
                var linkConfiguration = StrapLink.Configuration(
                    adapter: adapter.address, strap: address, strapType: type)
                // With the controller known, the strap's connection parameters are loaded before
                // each attempt (DESIGN §5); the kernel's reply reaches the loop through the link.
                linkConfiguration.controller = adapter.index
                link = try StrapLink(linkConfiguration)
            } catch {
                return [.failed(fault(for: error), reason: error.description)]
            }
            do { try link.map { (made) throws(Errno) in try members.watch(made.descriptor) } } catch {
                // Unwatched, the link could never be heard: the session ends with the reason, and the next
                // connect makes the link again.
                link = nil
                let failure = BlueZError.system(call: "epoll_ctl", errno: error)
                return [.failed(fault(for: failure), reason: failure.description)]
            }
            linkAddress = address
        }
        guard let link else { return [] }
        if link.state.isLive {
            return [.connected(address: "\(address)", batteryPercent: link.batteryPercent.map(Int.init))]
        }
        announced = false
        return translate(link.start(nowMs: nowMs))
    }

    /// The controller to connect from: the configured one (`hciN` or its address), else the first
    /// powered one with LE on, as the management interface last said (nil: it has not answered yet).
    /// Reading controllers needs no capability, but without CAP_NET_ADMIN and with nothing
    /// configured the kernel may refuse: then the kernel picks (BDADDR_ANY), or the configured
    /// address is bound to. Also the controller's index, for the management interface, when known.
    private func adapter() -> Result<(address: BluetoothAddress, index: ControllerIndex?), BlueZError>? {
        let decided: Result<(address: BluetoothAddress, index: ControllerIndex?), BlueZError>
        if let fixedAdapter {
            decided = fixedAdapter.map { ($0, nil) }
        } else {
            switch controllers?.state {
            case .resolving?: return nil
            case .chosen(let controller)?: decided = .success((controller.address, controller.index))
            case .failed(let error)?: decided = .failure(error)
            case nil: decided = .failure(.noAdapter)
            }
        }
        guard case .failure(let error) = decided, case .missingCapability = error else { return decided }
        if let name = configuration.adapter, let address = BluetoothAddress(name) { return .success((address, nil)) }
        guard configuration.adapter == nil else { return decided }
        logger.info("no CAP_NET_ADMIN to choose a Bluetooth controller; the kernel picks one")
        return .success((BluetoothAddress(rawValue: 0), nil))
    }

    func disconnect() -> [StrapEvent] {
        announced = false
        waiting = nil
        _ = link?.stop()
        return []
    }

    func personStands(atMs: Int64) {}

    func close() { dropLink() }

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

import HeartRateProtocol
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// The box's link to its strap: owns the L2CAP ATT socket and the GATT client procedure, and turns
/// them into samples `{monotonic ms, bpm?, rr raw}` and link states (connecting, discovering, live,
/// RR OK or heart-rate only, lost, reconnecting), battery and firmware.
///
/// It follows the event-loop contract (one thread, nothing blocks, no threads): the owner's loop
/// watches `descriptor` for readability and calls `onReadable`, arms a timer for `nextDeadlineMs`
/// and calls `onDeadline`. `descriptor` never changes for the link's lifetime, however many
/// sockets come and go underneath (it is an epoll set; see `ReadinessSet`). After a loss the link
/// reconnects by itself with `ReconnectSchedule` until `stop()`.
public final class StrapLink {
    public struct Configuration: Hashable, Sendable {
        /// The local controller's address (the socket is bound to it).
        public var adapter: BluetoothAddress
        public var strap: BluetoothAddress
        /// From the strap's advertising or the paired setting: H10 firmware before mid-2024 uses a
        /// random static address, later a public one (DESIGN §5).
        public var strapType: BluetoothAddressType
        /// How long one connection attempt may take before the strap counts as unreachable.
        public var connectTimeoutMs: Int64 = 10_000
        public var reconnect: ReconnectSchedule = .standard
        /// Consecutive measurements without RR after which the link reports heart-rate only. The
        /// strap notifies about once a second and a beat ends at least every 1.5 s at any resting
        /// rate, so 5 in a row without RR means the strap is not sending RR at all.
        public var heartRateOnlyAfter = 5
        /// The controller `adapter` is, for the management interface; nil: no parameters are loaded.
        public var controller: ControllerIndex?
        /// Loaded for the strap before every attempt (mgmt Load Connection Parameters), so the kernel
        /// accepts the interval the strap asks for ~30 s in; nil leaves the kernel's defaults (50 ms
        /// max), which a Polar strap refuses by dropping the link (DESIGN §5).
        public var connectionParameters: LEConnectionParameters? = .strap

        public init(adapter: BluetoothAddress, strap: BluetoothAddress, strapType: BluetoothAddressType) {
            self.adapter = adapter
            self.strap = strap
            self.strapType = strapType
        }
    }

    /// Counters for diagnostics and figures.
    public struct Statistics: Hashable, Sendable {
        public var connectionAttempts = 0
        public var connections = 0
        public var losses = 0
        public var notifications = 0
        public var rrIntervals = 0
        /// Values that were not a valid Heart Rate Measurement (counted, never a crash).
        public var malformedMeasurements = 0
        /// From the `connect()` call of the attempt that first went live to notifications enabled.
        public var firstLiveAfterConnectMs: Int64?
        /// From the `connect()` call of the attempt that first went live to the first RR interval.
        public var firstRRAfterConnectMs: Int64?
        /// Requests for new parameters the kernel accepted from the strap (mgmt New Connection Parameter).
        public var parameterUpdates = 0
    }

    /// Where the strap's connection parameters stand, for the status line and `doctor`.
    public enum ParameterState: Hashable, Sendable {
        /// Not loaded: no controller index, loading switched off, or no attempt yet.
        case notLoaded
        /// Sent before the attempt; the kernel applies it before the connect that follows.
        case sent(LEConnectionParameters)
        /// The kernel confirmed them.
        case loaded(LEConnectionParameters)
        /// The kernel refused; the link keeps the kernel's defaults.
        case refused(BlueZError)
        /// The strap asked for these and the kernel accepted them.
        case updatedByStrap(LEConnectionParameters)
    }

    public private(set) var parameterState: ParameterState = .notLoaded

    public let configuration: Configuration
    public private(set) var state: StrapLinkState = .idle
    public private(set) var statistics = Statistics()
    /// Last values read from the strap (kept across reconnections).
    public private(set) var batteryPercent: UInt8?
    public private(set) var firmwareRevision: String?

    private let transport: any ATTTransport
    private let readiness: ReadinessSet
    /// Carries Load Connection Parameters and the kernel's replies; inside `readiness`, so the
    /// replies are read by the owner's loop like any other event.
    private let management: ManagementSocket?
    private var socket: FileDescriptor?
    private var gatt = GATTClient()
    private var outbox: [[UInt8]] = []
    private var connectDeadlineMs: Int64?
    private var connectCalledAtMs: Int64 = 0
    private var failuresSinceLive = 0
    private var measurementsWithoutRR = 0
    private var receiveBuffer = [UInt8](repeating: 0, count: ATTSocket.maximumPDU)

    /// `management` stands in for the kernel's management socket in tests; by default one is opened
    /// when there are parameters to load.
    public init(
        _ configuration: Configuration, transport: any ATTTransport = KernelATTTransport(),
        management: ManagementSocket? = nil
    ) throws(BlueZError) {
        self.configuration = configuration
        self.transport = transport
        do { self.readiness = try ReadinessSet() } catch { throw .system(call: "epoll_create1", errno: error) }
        if configuration.controller != nil, configuration.connectionParameters != nil {
            if let management { self.management = management } else { self.management = try ManagementSocket() }
        } else {
            self.management = nil
        }
        if let management = self.management {
            do { try readiness.watch(management.descriptor, for: .readable) } catch {
                throw .system(call: "epoll_ctl", errno: error)
            }
        }
    }

    deinit { closeSocket() }

    // MARK: Event-loop contract

    /// The one descriptor to watch for readability, for the link's whole life.
    public var descriptor: FileDescriptor { readiness.descriptor }
    public var descriptors: [FileDescriptor] { [descriptor] }

    /// When the link next needs `onDeadline` (monotonic ms), nil when it waits only for I/O.
    public var nextDeadlineMs: Int64? {
        switch state {
        case .connecting: return connectDeadlineMs
        case .reconnecting(let at): return at
        default: return gatt.nextDeadlineMs
        }
    }

    /// Starts connecting (from idle, or after `stop()`).
    public func start(nowMs: Int64) -> [StrapLinkEvent] {
        guard readinessFailure == nil, state == .idle || isFailed else { return [] }
        failuresSinceLive = 0
        return attempt(nowMs: nowMs)
    }

    /// Closes the link and stays idle until `start`.
    public func stop() -> [StrapLinkEvent] {
        closeSocket()
        connectDeadlineMs = nil
        return transition(to: .idle)
    }

    public func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [StrapLinkEvent] {
        onReadable(nowMs: nowMs)
    }

    /// Why the link's own epoll set could not be read, once it could not: the link is then failed for good
    /// (its socket closed) and its owner must stop watching `descriptor` and make a new link.
    public private(set) var readinessFailure: Errno?

    /// Call when `descriptor` is readable: handles every socket event pending.
    public func onReadable(nowMs: Int64) -> [StrapLinkEvent] {
        guard readinessFailure == nil else { return [] }
        var events: [StrapLinkEvent] = []
        let members: [ReadyDescriptor]
        do { members = try readiness.ready() } catch {
            readinessFailure = error
            _ = gatt.handle(.linkDown)
            closeSocket()
            connectDeadlineMs = nil
            return transition(to: .failed(.system(call: "epoll_wait", errno: error)))
        }
        if let management, management.hasBacklog || members.contains(where: { $0.descriptor == management.descriptor })
        {
            managementEvents(management)
        }
        for ready in members where ready.descriptor == socket {
            if case .connecting = state {
                events += connectionEnded(nowMs: nowMs)
                continue
            }
            if ready.events.contains(.writable) { events += flush(nowMs: nowMs) }
            if !ready.events.isDisjoint(with: [.readable, .error, .hangup]) { events += receive(nowMs: nowMs) }
        }
        return events
    }

    /// The kernel's answers about the strap's parameters; every other management event is dropped
    /// (each management socket sees all of them).
    private func managementEvents(_ management: ManagementSocket) {
        while let packet = try? management.nextEvent() {
            guard packet.index == configuration.controller else { continue }
            switch packet.event {
            case .commandComplete(.loadConnectionParameters, let status, _),
                .commandStatus(.loadConnectionParameters, let status):
                guard case .sent(let parameters) = parameterState else { continue }
                parameterState =
                    status.isSuccess
                    ? .loaded(parameters)
                    : .refused(ManagementSocket.failure(.loadConnectionParameters, index: packet.index, status: status))
            case .newConnectionParameter(let entry, _) where entry.address == configuration.strap:
                statistics.parameterUpdates += 1
                parameterState = .updatedByStrap(entry.parameters)
            default:
                continue
            }
        }
    }

    /// Loads the strap's parameters. The kernel handles a management command within the write, so
    /// they are in place for the connect that follows; the reply is read later, by the loop.
    private func loadConnectionParameters() {
        guard let management, let index = configuration.controller,
            let parameters = configuration.connectionParameters
        else { return }
        let entry = DeviceConnectionParameters(
            address: configuration.strap, addressType: configuration.strapType, parameters: parameters)
        do {
            try management.send(.loadConnectionParameters([entry]), to: index)
            parameterState = .sent(parameters)
        } catch {
            parameterState = .refused(error)
        }
    }

    /// Call at or after `nextDeadlineMs`.
    public func onDeadline(nowMs: Int64) -> [StrapLinkEvent] {
        switch state {
        case .connecting:
            guard let deadline = connectDeadlineMs, nowMs >= deadline else { return [] }
            closeSocket()
            let seconds = Int((configuration.connectTimeoutMs + 999) / 1000)
            return attemptFailed(.strapUnreachable(address: configuration.strap, seconds: seconds), nowMs: nowMs)
        case .reconnecting(let at):
            guard nowMs >= at else { return [] }
            return attempt(nowMs: nowMs)
        default:
            guard let due = gatt.nextDeadlineMs, nowMs >= due else { return [] }
            return apply(gatt.handle(.tick(nowMs: nowMs)), nowMs: nowMs)
        }
    }

    // MARK: Connecting

    private var isFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    private func attempt(nowMs: Int64) -> [StrapLinkEvent] {
        statistics.connectionAttempts += 1
        var events = transition(to: .connecting(attempt: failuresSinceLive + 1))
        connectCalledAtMs = nowMs
        loadConnectionParameters()
        do {
            let (fd, connected) = try transport.connect(
                from: configuration.adapter, to: configuration.strap, type: configuration.strapType)
            socket = fd
            if connected {
                events += connectionUp(nowMs: nowMs)
            } else {
                do { try readiness.watch(fd, for: .writable) } catch {
                    // Unwatched, the attempt would never be seen to end: it fails now and is tried again.
                    closeSocket()
                    return events + attemptFailed(.system(call: "epoll_ctl", errno: error), nowMs: nowMs)
                }
                connectDeadlineMs = nowMs + configuration.connectTimeoutMs
            }
        } catch {
            events += attemptFailed(error, nowMs: nowMs)
        }
        return events
    }

    private func connectionEnded(nowMs: Int64) -> [StrapLinkEvent] {
        guard let fd = socket else { return [] }
        if let error = transport.connectionResult(fd, strap: configuration.strap) {
            closeSocket()
            var reported = error
            if case .strapUnreachable = error {
                reported = .strapUnreachable(
                    address: configuration.strap, seconds: Int((configuration.connectTimeoutMs + 999) / 1000))
            }
            return attemptFailed(reported, nowMs: nowMs)
        }
        return connectionUp(nowMs: nowMs)
    }

    private func connectionUp(nowMs: Int64) -> [StrapLinkEvent] {
        guard let fd = socket else { return [] }
        connectDeadlineMs = nil
        statistics.connections += 1
        do { try readiness.watch(fd, for: .readable) } catch {
            // A connection nobody reads is lost: drop it and connect again.
            return lose(.socketError(error), nowMs: nowMs)
        }
        gatt = GATTClient()
        measurementsWithoutRR = 0
        var events = transition(to: .discovering)
        events += apply(gatt.handle(.linkUp(nowMs: nowMs)), nowMs: nowMs)
        return events
    }

    private func attemptFailed(_ error: BlueZError, nowMs: Int64) -> [StrapLinkEvent] {
        failuresSinceLive += 1
        var events: [StrapLinkEvent] = [.connectFailed(error)]
        events += scheduleRetry(nowMs: nowMs)
        return events
    }

    private func scheduleRetry(nowMs: Int64) -> [StrapLinkEvent] {
        let delay = configuration.reconnect.delayMs(afterFailures: max(1, failuresSinceLive))
        return transition(to: .reconnecting(retryAtMs: nowMs + delay))
    }

    private func lose(_ loss: LinkLoss, nowMs: Int64) -> [StrapLinkEvent] {
        _ = gatt.handle(.linkDown)
        closeSocket()
        statistics.losses += 1
        failuresSinceLive += 1
        var events = transition(to: .lost(loss))
        events += scheduleRetry(nowMs: nowMs)
        return events
    }

    private func closeSocket() {
        guard let fd = socket else { return }
        readiness.unwatch(fd)
        fd.close()
        socket = nil
        outbox.removeAll()
    }

    // MARK: Traffic

    private func receive(nowMs: Int64) -> [StrapLinkEvent] {
        var events: [StrapLinkEvent] = []
        while let fd = socket {
            let result = receiveBuffer.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) -> Int? in try ATTSocket.receive(fd, into: buffer) }
            }
            let count: Int?
            switch result {
            case .success(let n): count = n
            case .failure(let error): return events + lose(LinkLoss.from(error), nowMs: nowMs)
            }
            guard let count else { break }
            if count == 0 { return events + lose(.closedByStrap, nowMs: nowMs) }
            events += apply(gatt.handle(.received(Array(receiveBuffer[..<count]), nowMs: nowMs)), nowMs: nowMs)
        }
        return events
    }

    private func apply(_ actions: [GATTClient.Action], nowMs: Int64) -> [StrapLinkEvent] {
        var events: [StrapLinkEvent] = []
        for action in actions {
            switch action {
            case .send(let pdu):
                outbox.append(pdu)
                events += flush(nowMs: nowMs)
            case .subscribed:
                failuresSinceLive = 0
                if statistics.firstLiveAfterConnectMs == nil {
                    statistics.firstLiveAfterConnectMs = nowMs - connectCalledAtMs
                }
                events += transition(to: .live)
            case .measurement(let measurement, let receivedAtMs):
                events += measured(measurement, atMs: receivedAtMs)
            case .battery(let percent):
                batteryPercent = percent
                events.append(.battery(percent: percent))
            case .firmwareRevision(let revision):
                firmwareRevision = revision
                events.append(.firmware(revision))
            case .malformed(let input):
                if case .heartRateMeasurement = input { statistics.malformedMeasurements += 1 }
                events.append(.malformed(input))
            case .failed(let failure):
                switch failure {
                case .heartRateServiceMissing, .heartRateMeasurementMissing, .notificationsUnsupported, .cccdMissing:
                    // Not a heart-rate strap: retrying cannot help.
                    closeSocket()
                    events += transition(to: .failed(.noHeartRateService(address: configuration.strap)))
                case .transactionTimeout:
                    events += lose(.transactionTimeout, nowMs: nowMs)
                case .refused, .malformedResponse, .invalidResponse:
                    // A confused bearer: start afresh on a new connection.
                    events += lose(.protocolError(failure), nowMs: nowMs)
                }
            }
            if socket == nil { break }
        }
        return events
    }

    private func flush(nowMs: Int64) -> [StrapLinkEvent] {
        guard let fd = socket else { return [] }
        while let pdu = outbox.first {
            do {
                guard try ATTSocket.send(fd, pdu) else {
                    try readiness.watch(fd, for: [.readable, .writable])
                    return []
                }
            } catch {
                return lose(LinkLoss.from(error), nowMs: nowMs)
            }
            outbox.removeFirst()
        }
        do { try readiness.watch(fd, for: .readable) } catch { return lose(.socketError(error), nowMs: nowMs) }
        return []
    }

    private func measured(_ decoded: HeartRateMeasurement, atMs nowMs: Int64) -> [StrapLinkEvent] {
        statistics.notifications += 1
        statistics.rrIntervals += decoded.rrIntervals.count
        let contactLost = decoded.sensorContact == .notDetected
        let sample = StrapSample(
            receivedAtMs: nowMs, bpm: contactLost || decoded.beatsPerMinute == 0 ? nil : decoded.beatsPerMinute,
            rrRaw: decoded.rrIntervals)
        var events: [StrapLinkEvent] = [.sample(sample)]
        if decoded.hasRRIntervals {
            measurementsWithoutRR = 0
            if statistics.firstRRAfterConnectMs == nil { statistics.firstRRAfterConnectMs = nowMs - connectCalledAtMs }
            if state != .rrOK { events += transition(to: .rrOK) }
        } else {
            measurementsWithoutRR += 1
            if measurementsWithoutRR >= configuration.heartRateOnlyAfter && state != .heartRateOnly {
                events += transition(to: .heartRateOnly)
            }
        }
        return events
    }

    private func transition(to new: StrapLinkState) -> [StrapLinkEvent] {
        guard new != state else { return [] }
        state = new
        return [.state(new)]
    }
}

/// What a `StrapLink` reports to its owner.
public enum StrapLinkEvent: Hashable, Sendable {
    case state(StrapLinkState)
    case sample(StrapSample)
    case battery(percent: UInt8)
    case firmware(String)
    /// One connection attempt failed (a retry is already scheduled): what the person can do.
    case connectFailed(BlueZError)
    /// Input the strap sent that was dropped (a malformed measurement, PDU or battery level);
    /// counted, the link goes on.
    case malformed(MalformedInput)
}

extension StrapLink.ParameterState: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notLoaded: "connection parameters not loaded (the kernel's defaults apply)"
        case .sent(let p): "connection parameters sent (\(p))"
        case .loaded(let p): "connection parameters loaded (\(p))"
        case .refused(let error): "connection parameters refused: \(error.description)"
        case .updatedByStrap(let p): "the strap's request for \(p) was accepted"
        }
    }
}

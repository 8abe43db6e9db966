import BlueZ
import HeartRateProtocol
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// The simulated H10's run loop: one controller, advertising through the management interface, an
/// L2CAP ATT server on CID 4, one central at a time (a Polar H10 takes one connection by default),
/// notifications paced by `NotificationPacer`, drop-outs on schedule. One thread around `poll`. (The
/// daemon's `VirtualStrap` is the in-process stand-in: no radio, events straight to the session.)
final class SimulatedH10<Source: BeatSource> {
    private let options: SimulatorOptions
    private let management: ManagementSocket
    private let controller: Controller
    /// The address centrals see and connect to: the static random one if given, else the public one.
    private let address: BluetoothAddress
    private let listener: FileDescriptor
    private let signals: SignalFD
    private var server: GATTServer
    private let handles: HeartRateStrapHandles
    private var pacer: NotificationPacer<Source>
    private var client: (fd: FileDescriptor, address: BluetoothAddress, type: BluetoothAddressType)?
    /// The client link's HCI handle, for the raw HCI commands of the parameter request.
    private var clientHandle: UInt16?
    /// Opened when the strap is to ask for new connection parameters (needs CAP_NET_RAW).
    private let hci: HCIRawSocket?
    private var parameterRequest = ParameterRequest()
    private var droppedDuringDiscovery = false
    private var dropouts: [SimulatorOptions.Dropout]
    private var dropoutEndsAtMs: Int64?
    private var finishedAtMs: Int64?
    /// While no central is connected, advertising is renewed this often (see `renewAdvertising`).
    private var renewAdvertisingAtMs: Int64?
    private static var renewAdvertisingMs: Int64 { 1_000 }
    private var notifications = 0
    private var buffer = [UInt8](repeating: 0, count: ATTSocket.maximumPDU)
    private static var advertisingInstance: UInt8 { 1 }

    init(options: SimulatorOptions, source: Source) throws(SimulatorError) {
        self.options = options
        dropouts = options.dropouts
        var identity = PolarH10Profile.identity(id: options.deviceID)
        identity.deviceName = options.advertisedName
        identity.batteryPercent = options.battery
        identity.firmwareRevision = options.firmware
        let table = AttributeDatabase.polarH10(identity)
        (server, handles) = (GATTServer(database: table.0, serverRxMTU: PolarH10Profile.serverRxMTU), table.1)
        pacer = NotificationPacer(source: source, speed: options.speed, heartRateOnly: options.heartRateOnly)
        do {
            management = try ManagementSocket()
            let staticAddress = options.randomStaticAddress
            controller = try Self.prepare(options.adapter, staticAddress: staticAddress, management)
            address = staticAddress ?? controller.address
            // The kernel matches an incoming link to a listener by the controller's identity address.
            listener = try ATTSocket.listen(on: address, type: staticAddress == nil ? .lePublic : .leRandom)
            let needsHCI = options.connectionUpdateAtS != nil || (options.dropDuringDiscovery && options.dropVia == .hci)
            hci = needsHCI ? try HCIRawSocket(controller: controller.index) : nil
        } catch {
            throw .bluetooth(error)
        }
        do {
            signals = try SignalFD(signals: [.interrupt, .terminate])
        } catch {
            throw .bluetooth(.system(call: "signalfd", errno: error))
        }
    }

    deinit {
        client?.fd.close()
        listener.close()
        signals.close()
    }

    /// The named controller (or the first), powered on with LE and, if asked, a static random address
    /// (which the kernel takes only while the controller is off): the simulator sets up its side.
    private static func prepare(_ name: String?, staticAddress: BluetoothAddress?, _ management: ManagementSocket)
        throws(BlueZError) -> Controller
    {
        let controllers = try Controller.all(management)
        let chosen: Controller
        if let name {
            chosen = try Controller.named(name, in: controllers)
        } else {
            guard let first = controllers.first else { throw .noAdapter }
            chosen = first
        }
        if let staticAddress {
            if chosen.isPowered { try management.setPowered(false, controller: chosen.index) }
            try management.setStaticAddress(staticAddress, controller: chosen.index)
        }
        if !chosen.lowEnergyEnabled { try management.setLowEnergy(true, controller: chosen.index) }
        if !chosen.isPowered || staticAddress != nil { try management.setPowered(true, controller: chosen.index) }
        try? management.removeAdvertising(instance: 0, controller: chosen.index)
        return chosen
    }

    /// Runs until the replayed file is delivered (exit 0) or a signal arrives.
    func run() throws(SimulatorError) {
        try advertise()
        while true {
            let now = SystemClock.monotonicMs()
            if try handleTimers(nowMs: now) { return }
            // Watched as they are now: a central accepted below is read from on the next turn.
            let hciFD = hci?.descriptor
            let clientFD = client?.fd
            let watched = [listener, signals.descriptor, management.descriptor] + [hciFD, clientFD].compactMap { $0 }
            let ready = (try? ReadinessWait.readable(watched, timeoutMs: nextDeadlineMs.map { $0 - now })) ?? []
            if ready.contains(signals.descriptor) {
                log("stopped by signal")
                shutDown()
                return
            }
            if ready.contains(management.descriptor) { drainManagement() }
            if ready.contains(listener) { try accept() }
            if let hciFD, ready.contains(hciFD) { readHCI() }
            if let clientFD, ready.contains(clientFD) { receive() }
        }
    }

    private var nextDeadlineMs: Int64? {
        [
            pacer.nextDueMs, dropoutStartMs, dropoutEndsAtMs, finishedAtMs.map { $0 + 1_000 }, renewalDueMs,
            client == nil ? nil : parameterRequest.nextDeadlineMs,
        ]
        .compactMap { $0 }.min()
    }

    private var renewalDueMs: Int64? { client == nil && dropoutEndsAtMs == nil ? renewAdvertisingAtMs : nil }

    private var dropoutStartMs: Int64? {
        guard dropoutEndsAtMs == nil, let next = dropouts.first, let start = pacer.startedAtMs else { return nil }
        return start + Int64(next.atS * 1000)
    }

    /// Returns true when the simulator is done.
    private func handleTimers(nowMs: Int64) throws(SimulatorError) -> Bool {
        if let end = dropoutEndsAtMs, nowMs >= end {
            dropoutEndsAtMs = nil
            try advertise()
        }
        if let due = renewalDueMs, nowMs >= due { renewAdvertising(nowMs: nowMs) }
        if client != nil, let due = parameterRequest.nextDeadlineMs, nowMs >= due {
            perform(parameterRequest.deadline(nowMs: nowMs))
        }
        if let start = dropoutStartMs, nowMs >= start {
            let dropout = dropouts.removeFirst()
            log("dropout at=\(dropout.atS)s for=\(dropout.forS)s")
            try? management.removeAdvertising(instance: Self.advertisingInstance, controller: controller.index)
            dropClient()
            dropoutEndsAtMs = nowMs + Int64(dropout.forS * 1000)
        }
        while let due = pacer.nextDueMs, nowMs >= due, finishedAtMs == nil {
            let subscribed = client != nil && server.isNotifying(handles.heartRateMeasurement.value)
            // A real H10 sends 0–3 RR a notification, whatever the MTU would carry.
            let capacity = min(3, HeartRateMeasurement(beatsPerMinute: 60).rrCapacity(attMTU: server.attMTU))
            if let measurement = pacer.advance(subscribed: subscribed, rrCapacity: capacity) {
                notify(measurement)
            }
            if pacer.isFinished { finishedAtMs = nowMs }
        }
        if let finished = finishedAtMs, nowMs >= finished + 1_000 {
            log("done sent=\(pacer.sentIntervals) lost=\(pacer.lostIntervals) notifications=\(notifications)")
            shutDown()
            return true
        }
        return false
    }

    private func advertise() throws(SimulatorError) {
        do {
            try management.addAdvertising(
                instance: Self.advertisingInstance, data: PolarH10Profile.advertisement,
                scanResponse: PolarH10Profile.scanResponse(name: options.advertisedName), controller: controller.index)
        } catch {
            throw .bluetooth(error)
        }
        renewAdvertisingAtMs = SystemClock.monotonicMs() + Self.renewAdvertisingMs
        log("advertising name=\"\(options.advertisedName)\" address=\(address) adapter=\(controller.name)")
    }

    /// A real strap advertises every few hundred milliseconds; the kernel's virtual controllers
    /// (btvirt) send a scanner one report per advertising enable only, and one that arrives while
    /// the scanner's kernel is still starting its discovery is lost. Re-enabling the advertising
    /// every second gives scanners the repeated reports a real strap gives.
    private func renewAdvertising(nowMs: Int64) {
        try? management.removeAdvertising(instance: Self.advertisingInstance, controller: controller.index)
        try? management.addAdvertising(
            instance: Self.advertisingInstance, data: PolarH10Profile.advertisement,
            scanResponse: PolarH10Profile.scanResponse(name: options.advertisedName), controller: controller.index)
        renewAdvertisingAtMs = nowMs + Self.renewAdvertisingMs
    }

    private func accept() throws(SimulatorError) {
        let accepted: (FileDescriptor, BluetoothAddress, BluetoothAddressType)?
        do {
            accepted = try ATTSocket.accept(listener)
        } catch {
            throw .bluetooth(error)
        }
        guard let (fd, address, type) = accepted else { return }
        if client != nil || dropoutEndsAtMs != nil {
            fd.close()  // one central at a time, and none during a drop-out
            return
        }
        client = (fd, address, type)
        clientHandle = HCIRawSocket.connectionHandle(of: fd)
        parameterRequest = ParameterRequest()
        _ = server.handle(.connected)
        log("connected peer=\(address) type=\(type)")
    }

    private func receive() {
        guard let current = client else { return }
        while true {
            let result = buffer.withUnsafeMutableBytes { b in
                Result { () throws(Errno) -> Int? in try ATTSocket.receive(current.fd, into: b) }
            }
            guard case .success(let count) = result, let count, count > 0 else {
                if case .success(nil) = result { return }
                log("disconnected peer=\(current.address)")
                current.fd.close()
                client = nil
                return
            }
            // The chosen discovery request (default Read By Type: the central has the services and
            // now asks for characteristics) arrives: the strap goes away before answering it.
            if options.dropDuringDiscovery, !droppedDuringDiscovery, buffer[0] == options.dropAt.opcode {
                droppedDuringDiscovery = true
                if options.dropVia == .stall {
                    log("stalling during discovery at=\(options.dropAt.rawValue)")
                    continue
                }
                log("dropping during discovery at=\(options.dropAt.rawValue) via=\(options.dropVia.rawValue)")
                dropClient(via: options.dropVia)
                return
            }
            for action in server.handle(.received(Array(buffer[..<count]))) {
                switch action {
                case .send(let answer):
                    _ = try? ATTSocket.send(current.fd, answer)
                case .subscriptionChanged(let valueHandle, let notify, _)
                where valueHandle == handles.heartRateMeasurement.value:
                    let now = SystemClock.monotonicMs()
                    if notify { pacer.start(atMs: now) }
                    if notify, let at = options.connectionUpdateAtS {
                        parameterRequest.schedule(atMs: now + Int64(at * 1000))
                    }
                    log(notify ? "subscribed" : "unsubscribed")
                default:
                    break
                }
            }
        }
    }

    private func notify(_ measurement: HeartRateMeasurement) {
        guard let current = client else { return }
        guard let pdu = server.notification(measurement.encoded(), at: handles.heartRateMeasurement.value) else {
            return
        }
        _ = try? ATTSocket.send(current.fd, pdu)
        notifications += 1
        if !options.quiet {
            let rr = measurement.rrIntervals.map(String.init).joined(separator: ",")
            log("notify t=\(pacer.heartTimeMs) bpm=\(measurement.beatsPerMinute) rr=\(rr)")
        }
    }

    /// Ends the link from the strap's side: the controller disconnects, so the central sees the
    /// loss the way it would when a strap goes out of range.
    private func dropClient(via method: DiscoveryDropMethod = .mgmt) {
        guard let current = client else { return }
        switch method {
        case .mgmt:
            try? management.disconnect(current.address, type: current.type, controller: controller.index)
        case .hci:
            // 0x13 Remote User Terminated Connection (Bluetooth Core 5.3 Vol 1 Part F §2).
            if let hci, let handle = clientHandle { try? hci.send(PeripheralHCI.disconnect(handle: handle, reason: 0x13)) }
        case .close, .stall:
            break  // only the socket goes; the kernel ends the link once no channel holds it
        }
        current.fd.close()
        client = nil
        log("disconnected peer=\(current.address)")
    }

    private func drainManagement() { management.discardPending() }

    private func readHCI() {
        guard let hci else { return }
        while let packet = hci.receive() {
            guard let input = PeripheralHCI.input(packet) else { continue }
            switch input {
            case .connectionUpdateComplete(let status, let handle, let interval, let latency, let timeout)
            where handle == clientHandle:
                if status == 0 {
                    log("conn-update in-force interval=\(interval) latency=\(latency) timeout=\(timeout)")
                }
                perform(parameterRequest.answered(accepted: status == 0, nowMs: SystemClock.monotonicMs()))
            case .parameterUpdateResponse(let handle, _, let accepted) where handle == clientHandle:
                perform(parameterRequest.answered(accepted: accepted, nowMs: SystemClock.monotonicMs()))
            case .commandStatus(let status, let opcode) where status != 0 && opcode == 0x2013:
                log("conn-update command refused status=0x\(String(status, radix: 16))")
                perform(parameterRequest.answered(accepted: false, nowMs: SystemClock.monotonicMs()))
            default:
                break
            }
        }
    }

    /// Carries out what the parameter request decided.
    private func perform(_ step: ParameterRequest.Step?) {
        guard let step, let hci, let handle = clientHandle else { return }
        let p = LEConnectionParameters.polarRequest
        switch step {
        case .request(let attempt):
            let packet =
                options.connectionUpdateVia == .ll
                ? PeripheralHCI.leConnectionUpdate(handle: handle, p)
                : PeripheralHCI.parameterUpdateRequest(handle: handle, identifier: UInt8(attempt), p)
            do {
                try hci.send(packet)
                log(
                    "conn-update requested via=\(options.connectionUpdateVia.rawValue) attempt=\(attempt) "
                        + "min=\(p.minInterval) max=\(p.maxInterval) latency=\(p.latency) timeout=\(p.supervisionTimeout)"
                )
            } catch {
                log("conn-update could not be sent: \(error)")
            }
        case .accepted:
            log("conn-update accepted")
        case .rejected(let attempt):
            log("conn-update rejected attempt=\(attempt)")
        case .giveUp:
            // As a Polar strap does after repeated refusals: "Unacceptable Connection Parameters".
            log("conn-update giving up: disconnect reason=0x3b")
            try? hci.send(PeripheralHCI.disconnect(handle: handle, reason: 0x3B))
        }
    }

    private func shutDown() {
        try? management.removeAdvertising(instance: Self.advertisingInstance, controller: controller.index)
        dropClient()
    }

    private func log(_ line: String) {
        let text = Array((line + "\n").utf8)
        _ = text.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }
}

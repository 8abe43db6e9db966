/// The box's GATT client for one link to a heart-rate strap, with no I/O: the edge feeds it
/// events and performs the actions it returns (Core 5.3 Vol 3 Part G §4).
///
/// Procedure: optional MTU exchange → primary service discovery (Read By Group Type) →
/// characteristic discovery in the Heart Rate service (Read By Type 0x2803) → descriptor discovery
/// for Heart Rate Measurement (Find Information) → Write Request `01 00` to its CCCD →
/// notifications; then, optionally, Battery Level and Firmware Revision String are read.
/// One request is outstanding at a time (Vol 3 Part F §3.3.2); a request without a response
/// within 30 s fails the link (§3.3.3). Attribute Not Found ends a discovery step normally.
/// The strap's own requests get an answer, since an unanswered request makes the peer drop the
/// link: Exchange MTU a response, the rest what an empty attribute database answers (Attribute
/// Not Found for discovery, Invalid Handle for reads and writes, Request Not Supported otherwise).
public struct GATTClient: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// The Rx MTU offered in an MTU exchange; nil skips the exchange (23 carries 9 RR).
        public var clientRxMTU: UInt16?
        public var readsBatteryLevel: Bool
        public var readsFirmwareRevision: Bool
        public var transactionTimeoutMs: Int64

        public init(
            clientRxMTU: UInt16? = nil, readsBatteryLevel: Bool = true, readsFirmwareRevision: Bool = true,
            transactionTimeoutMs: Int64 = 30_000
        ) {
            self.clientRxMTU = clientRxMTU
            self.readsBatteryLevel = readsBatteryLevel
            self.readsFirmwareRevision = readsFirmwareRevision
            self.transactionTimeoutMs = transactionTimeoutMs
        }
    }

    public enum Event: Hashable, Sendable {
        /// The L2CAP ATT channel is connected; discovery starts.
        case linkUp(nowMs: Int64)
        /// One PDU from the strap.
        case received([UInt8], nowMs: Int64)
        /// Time passed (the edge calls this at `nextDeadlineMs`).
        case tick(nowMs: Int64)
        /// Read the battery level again (queued behind any outstanding request).
        case readBatteryLevel(nowMs: Int64)
        /// The link is gone; nothing more is sent.
        case linkDown
    }

    public enum Action: Hashable, Sendable {
        /// Write these octets to the ATT socket (one PDU).
        case send([UInt8])
        case measurement(HeartRateMeasurement, receivedAtMs: Int64)
        case battery(percent: UInt8)
        case firmwareRevision(String)
        /// Notifications of Heart Rate Measurement are enabled.
        case subscribed
        /// The link is unusable; the edge should close it (and may reconnect).
        case failed(GATTClientFailure)
        /// Dropped input, to be counted.
        case malformed(MalformedInput)
    }

    public enum Phase: Hashable, Sendable {
        case idle
        case discovering
        case subscribed
        case failed(GATTClientFailure)
        case disconnected
    }

    public struct Service: Hashable, Sendable {
        public let uuid: BluetoothUUID
        public let start: UInt16
        public let end: UInt16
    }

    public struct Characteristic: Hashable, Sendable {
        public let uuid: BluetoothUUID
        public let declaration: UInt16
        public let value: UInt16
        public let properties: CharacteristicProperties
    }

    public let configuration: Configuration
    public private(set) var phase: Phase = .idle
    public private(set) var attMTU = 23
    public private(set) var services: [Service] = []
    public private(set) var heartRateMeasurement: Characteristic?
    public private(set) var heartRateCCCD: UInt16?
    public private(set) var batteryLevel: Characteristic?
    public private(set) var firmwareRevision: Characteristic?

    /// Monotonic ms at which the outstanding request times out; nil when none is outstanding.
    public var nextDeadlineMs: Int64? { outstanding.map { $0.sentAtMs + configuration.transactionTimeoutMs } }

    // Progress of each step; see `nextStep()`.
    private enum Step: Hashable, Sendable {
        case exchangeMTU
        case services(from: UInt16)
        case characteristics(Service, from: UInt16)
        case descriptors(from: UInt16, to: UInt16)
        case subscribe(cccd: UInt16)
        case readBattery(UInt16)
        case readFirmware(UInt16, offset: UInt16)
    }

    private struct Outstanding: Hashable, Sendable {
        let step: Step
        let request: ATTOpcode
        let sentAtMs: Int64
    }

    private var outstanding: Outstanding?
    /// The box's own attribute database is empty; this answers the strap's requests about it.
    private var localServer = GATTServer(database: AttributeDatabase())
    private var mtuDone = false
    private var servicesNext: UInt16? = 1
    private var characteristicsNext: [UInt16: UInt16] = [:]  // service start → next handle; absent = done
    private var characteristicsFound: [UInt16: [Characteristic]] = [:]
    private var descriptorsNext: UInt16?
    private var subscribed = false
    private var batteryReadsWanted = 0
    private var firmwareBytes: [UInt8] = []
    private var firmwareNextOffset: UInt16? = 0
    /// Notifications that came before the measurement's handle was known (a bonded strap may
    /// notify straight after connecting); delivered once it is.
    private var early: [(handle: UInt16, value: [UInt8], atMs: Int64)] = []
    private static let earlyLimit = 16
    /// Attribute values are at most 512 octets (Vol 3 Part F §3.2.9).
    private static let maxValueLength = 512

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .linkUp(let now):
            self = GATTClient(configuration: configuration)
            phase = .discovering
            mtuDone = configuration.clientRxMTU == nil
            batteryReadsWanted = configuration.readsBatteryLevel ? 1 : 0
            if !configuration.readsFirmwareRevision { firmwareNextOffset = nil }
            return sendNext(now)
        case .received(let bytes, let now):
            guard isLive else { return [] }
            var actions = receive(bytes, now)
            actions += checkTimeout(now)
            return actions
        case .tick(let now):
            guard isLive else { return [] }
            return checkTimeout(now)
        case .readBatteryLevel(let now):
            guard isLive else { return [] }
            batteryReadsWanted += 1
            return sendNext(now)
        case .linkDown:
            phase = .disconnected
            outstanding = nil
            return []
        }
    }

    private var isLive: Bool { phase == .discovering || phase == .subscribed }

    private mutating func fail(_ failure: GATTClientFailure) -> [Action] {
        phase = .failed(failure)
        outstanding = nil
        return [.failed(failure)]
    }

    private mutating func checkTimeout(_ now: Int64) -> [Action] {
        guard let o = outstanding, now - o.sentAtMs >= configuration.transactionTimeoutMs else { return [] }
        return fail(.transactionTimeout(o.request))
    }

    // MARK: Planning

    private func service(_ uuid: BluetoothUUID) -> Service? { services.first { $0.uuid == uuid } }

    /// The next request to make, from what is known so far; nil when there is nothing to do.
    private func nextStep() -> Step? {
        if !mtuDone { return .exchangeMTU }
        if let from = servicesNext { return .services(from: from) }
        guard let heartRate = service(.heartRate) else { return nil }
        if let from = characteristicsNext[heartRate.start] { return .characteristics(heartRate, from: from) }
        guard let measurement = heartRateMeasurement else { return nil }
        if heartRateCCCD == nil, let from = descriptorsNext {
            return .descriptors(from: from, to: descriptorRangeEnd(of: measurement, in: heartRate))
        }
        guard let cccd = heartRateCCCD else { return nil }
        if !subscribed { return .subscribe(cccd: cccd) }
        if configuration.readsBatteryLevel, let battery = service(.battery),
            let from = characteristicsNext[battery.start]
        {
            return .characteristics(battery, from: from)
        }
        if batteryReadsWanted > 0, let level = batteryLevel { return .readBattery(level.value) }
        if configuration.readsFirmwareRevision, firmwareNextOffset != nil, firmwareRevision == nil,
            let (info, from) = nextDeviceInformation
        {
            return .characteristics(info, from: from)
        }
        if let offset = firmwareNextOffset, let firmware = firmwareRevision {
            return .readFirmware(firmware.value, offset: offset)
        }
        return nil
    }

    /// The first Device Information service not yet searched, and where to go on. A peer may
    /// have several: bluetoothd puts a PnP-only one in front of the strap's own, so each is tried
    /// in turn until one has the Firmware Revision String.
    private var nextDeviceInformation: (Service, UInt16)? {
        for s in services where s.uuid == .deviceInformation {
            if let from = characteristicsNext[s.start] { return (s, from) }
        }
        return nil
    }

    private func descriptorRangeEnd(of c: Characteristic, in s: Service) -> UInt16 {
        let following = (characteristicsFound[s.start] ?? []).map(\.declaration).filter { $0 > c.value }
        return following.min().map { $0 - 1 } ?? s.end
    }

    private mutating func sendNext(_ now: Int64) -> [Action] {
        guard outstanding == nil, isLive, let step = nextStep() else { return [] }
        let pdu: ATTPDU =
            switch step {
            case .exchangeMTU: .exchangeMTURequest(clientRxMTU: configuration.clientRxMTU ?? 23)
            case .services(let from): .readByGroupTypeRequest(start: from, end: 0xFFFF, type: .primaryService)
            case .characteristics(let s, let from): .readByTypeRequest(start: from, end: s.end, type: .characteristic)
            case .descriptors(let from, let to): .findInformationRequest(start: from, end: to)
            case .subscribe(let cccd): .writeRequest(handle: cccd, value: [0x01, 0x00])
            case .readBattery(let handle): .readRequest(handle: handle)
            case .readFirmware(let handle, let offset):
                offset == 0 ? .readRequest(handle: handle) : .readBlobRequest(handle: handle, offset: offset)
            }
        outstanding = Outstanding(step: step, request: pdu.opcode, sentAtMs: now)
        return [.send(pdu.encoded())]
    }

    // MARK: Receiving

    private mutating func receive(_ bytes: [UInt8], _ now: Int64) -> [Action] {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(bytes: bytes)
        } catch {
            guard let opcode = error.opcode else { return [.malformed(.pdu(error))] }
            if opcode.isRequest { return [.malformed(.pdu(error))] + answerLocally(bytes) }
            if let o = outstanding, opcode == o.request.responseOpcode || opcode == .errorResponse {
                return fail(.malformedResponse(error))
            }
            return [.malformed(.pdu(error))]
        }
        switch pdu {
        case .exchangeMTURequest(let theirs):
            // Vol 3 Part F §3.4.2: answer with our Rx MTU; ATT_MTU is the smaller, at least 23.
            let ours = configuration.clientRxMTU ?? 23
            attMTU = max(23, min(Int(theirs), Int(ours)))
            return [.send(ATTPDU.exchangeMTUResponse(serverRxMTU: ours).encoded())]
        case .handleValueNotification(let handle, let value):
            return deliver(handle, value, now)
        case .handleValueIndication(let handle, let value):
            return [.send(ATTPDU.handleValueConfirmation.encoded())] + deliver(handle, value, now)
        case .handleValueConfirmation:
            return []
        default:
            break
        }
        if pdu.opcode.isRequest { return answerLocally(bytes) }
        if pdu.opcode.isCommand { return [] }
        guard let o = outstanding else { return [.malformed(.unexpectedResponse(pdu.opcode))] }
        if case .errorResponse(let request, _, _) = pdu, request != o.request {
            return [.malformed(.unexpectedResponse(pdu.opcode))]
        }
        if pdu.opcode != .errorResponse && pdu.opcode != o.request.responseOpcode {
            return [.malformed(.unexpectedResponse(pdu.opcode))]
        }
        outstanding = nil
        var actions = complete(o.step, with: pdu, now)
        if isLive { actions += sendNext(now) }
        return actions
    }

    private mutating func answerLocally(_ request: [UInt8]) -> [Action] {
        localServer.handle(.received(request)).compactMap { if case .send(let b) = $0 { .send(b) } else { nil } }
    }

    private mutating func deliver(_ handle: UInt16, _ value: [UInt8], _ now: Int64) -> [Action] {
        if let m = heartRateMeasurement, handle == m.value {
            do {
                return [.measurement(try HeartRateMeasurement(bytes: value), receivedAtMs: now)]
            } catch {
                return [.malformed(.heartRateMeasurement(error))]
            }
        }
        if let b = batteryLevel, handle == b.value { return batteryAction(value) }
        if heartRateMeasurement == nil {
            if early.count == Self.earlyLimit { early.removeFirst() }
            early.append((handle, value, now))
        }
        return []
    }

    private func batteryAction(_ value: [UInt8]) -> [Action] {
        guard value.count == 1, value[0] <= 100 else { return [.malformed(.batteryLevel(value))] }
        return [.battery(percent: value[0])]
    }

    /// Applies the response to the step it answers. Returns actions for the caller.
    private mutating func complete(_ step: Step, with pdu: ATTPDU, _ now: Int64) -> [Action] {
        let notFound: Bool
        if case .errorResponse(_, _, let error) = pdu {
            notFound = error == .attributeNotFound
        } else {
            notFound = false
        }
        switch step {
        case .exchangeMTU:
            mtuDone = true
            if case .exchangeMTUResponse(let theirs) = pdu {
                attMTU = max(23, min(Int(theirs), Int(configuration.clientRxMTU ?? 23)))
            }
            // An error here only means the default ATT_MTU of 23 stays.
            return []

        case .services(let from):
            if notFound {
                servicesNext = nil
            } else if case .readByGroupTypeResponse(let list) = pdu {
                var floor = Int(from)
                for entry in list {
                    guard Int(entry.handle) >= floor, entry.groupEnd >= entry.handle,
                        let uuid = BluetoothUUID(littleEndian: entry.value)
                    else { return fail(.invalidResponse(.readByGroupTypeResponse)) }
                    services.append(Service(uuid: uuid, start: entry.handle, end: entry.groupEnd))
                    floor = Int(entry.groupEnd) + 1
                }
                servicesNext = floor > 0xFFFF ? nil : UInt16(floor)
            } else {
                return refused(pdu)
            }
            guard servicesNext == nil else { return [] }
            guard let heartRate = service(.heartRate) else { return fail(.heartRateServiceMissing) }
            let information = services.filter { $0.uuid == .deviceInformation }
            for s in [heartRate, service(.battery)].compactMap({ $0 }) + information {
                characteristicsNext[s.start] = s.start
            }
            return []

        case .characteristics(let s, let from):
            let required = s.uuid == .heartRate
            if notFound {
                characteristicsNext[s.start] = nil
            } else if case .readByTypeResponse(let list) = pdu {
                var floor = Int(from)
                for entry in list {
                    var r = ByteReader(entry.value)
                    guard Int(entry.handle) >= floor, entry.handle <= s.end,
                        entry.value.count == 5 || entry.value.count == 19,
                        let properties = r.u8(), let valueHandle = r.u16(), valueHandle > entry.handle,
                        valueHandle <= s.end, let uuid = BluetoothUUID(littleEndian: r.rest())
                    else {
                        if required { return fail(.invalidResponse(.readByTypeResponse)) }
                        characteristicsNext[s.start] = nil
                        return []
                    }
                    characteristicsFound[s.start, default: []].append(
                        Characteristic(
                            uuid: uuid, declaration: entry.handle, value: valueHandle,
                            properties: CharacteristicProperties(rawValue: properties)))
                    floor = Int(entry.handle) + 1
                }
                characteristicsNext[s.start] = floor > Int(s.end) ? nil : UInt16(floor)
            } else if required {
                return refused(pdu)
            } else {
                characteristicsNext[s.start] = nil  // optional service: do without it
            }
            guard characteristicsNext[s.start] == nil else { return [] }
            return characteristicsDone(s, now)

        case .descriptors(let from, let to):
            if notFound {
                descriptorsNext = nil
            } else if case .findInformationResponse(let list) = pdu {
                var floor = Int(from)
                for entry in list {
                    guard Int(entry.handle) >= floor, entry.handle <= to else {
                        return fail(.invalidResponse(.findInformationResponse))
                    }
                    if entry.type == .clientCharacteristicConfiguration {
                        heartRateCCCD = entry.handle
                        break
                    }
                    floor = Int(entry.handle) + 1
                }
                descriptorsNext = heartRateCCCD != nil || floor > Int(to) ? nil : UInt16(floor)
            } else {
                return refused(pdu)
            }
            if descriptorsNext == nil && heartRateCCCD == nil { return fail(.cccdMissing) }
            return []

        case .subscribe:
            guard case .writeResponse = pdu else { return refused(pdu) }
            subscribed = true
            phase = .subscribed
            return [.subscribed]

        case .readBattery:
            batteryReadsWanted = max(0, batteryReadsWanted - 1)
            if case .readResponse(let value) = pdu { return batteryAction(value) }
            return []  // an optional read: the level stays unknown

        case .readFirmware(_, let offset):
            var more = false
            switch pdu {
            case .readResponse(let value), .readBlobResponse(let value):
                firmwareBytes += value
                // A full-size answer may have more behind it (Vol 3 Part G §4.8.3).
                more = value.count == attMTU - 1 && firmwareBytes.count < Self.maxValueLength
            default:
                break  // Attribute Not Long / Invalid Offset after a full first part: that was all
            }
            if more {
                firmwareNextOffset = UInt16(firmwareBytes.count)
                return []
            }
            firmwareNextOffset = nil
            if offset == 0, case .errorResponse = pdu { return [] }
            return [.firmwareRevision(peerText(firmwareBytes))]
        }
    }

    private mutating func characteristicsDone(_ s: Service, _ now: Int64) -> [Action] {
        let found = characteristicsFound[s.start] ?? []
        switch s.uuid {
        case .heartRate:
            guard let m = found.first(where: { $0.uuid == .heartRateMeasurement }) else {
                return fail(.heartRateMeasurementMissing)
            }
            guard m.properties.contains(.notify) else { return fail(.notificationsUnsupported) }
            heartRateMeasurement = m
            descriptorsNext = m.value < 0xFFFF ? m.value + 1 : nil
            if descriptorsNext == nil || m.value >= descriptorRangeEnd(of: m, in: s) { return fail(.cccdMissing) }
            let buffered = early
            early = []
            return buffered.flatMap { deliver($0.handle, $0.value, $0.atMs) }
        case .battery:
            batteryLevel = found.first { $0.uuid == .batteryLevel && $0.properties.contains(.read) }
            if batteryLevel == nil { batteryReadsWanted = 0 }
            return []
        default:
            firmwareRevision = found.first { $0.uuid == .firmwareRevisionString && $0.properties.contains(.read) }
            if firmwareRevision == nil && nextDeviceInformation == nil { firmwareNextOffset = nil }
            return []
        }
    }

    private mutating func refused(_ pdu: ATTPDU) -> [Action] {
        if case .errorResponse(let request, _, let error) = pdu { return fail(.refused(request, error)) }
        return fail(.invalidResponse(pdu.opcode))
    }
}

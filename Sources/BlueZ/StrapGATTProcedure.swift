import HeartRateProtocol

/// The GATT client side of one connection to a strap, sans I/O (bytes and "now" in, actions out):
/// primary service discovery, characteristic discovery, the HR Measurement's CCCD, Write Request
/// `01 00`, then Battery Level and Firmware Revision reads (Bluetooth Core 5.3 Vol 3 Part G §4.4.1,
/// §4.6.1, §4.7.1, §4.8.1, §4.12.3; DESIGN §5). One request outstanding at a time, 30 s each
/// (Vol 3 Part F §3.3.3); Attribute Not Found ends a discovery step normally.
///
/// The bearer is shared: the strap may send its own requests (MTU exchange, discovery of our
/// database). Each gets an answer — our MTU, "Attribute Not Found" for discovery of an empty
/// database, "Request Not Supported" otherwise — because an unanswered request makes the peer
/// drop the link (DESIGN §5).
struct StrapGATTProcedure {
    enum Output: Hashable {
        /// Send these bytes as one ATT PDU.
        case send([UInt8])
        /// The CCCD write succeeded: notifications are enabled.
        case subscribed
        /// A Heart Rate Measurement value (notification or indication).
        case measurement([UInt8])
        case battery(UInt8)
        case firmware(String)
        /// The procedure cannot go on; the link should be closed.
        case failed(Failure)
    }

    enum Failure: Hashable {
        case noHeartRateMeasurement
        case noCCCD
        case transactionTimeout
        case attError(request: ATTOpcode, error: ATTError)
        case malformedResponse(String)
    }

    static let transactionTimeoutMs: Int64 = 30_000
    /// ATT_MTU on LE when none is exchanged (Vol 3 Part F §3.2.8): 23 carries 9 RR per notification.
    static let defaultMTU: UInt16 = 23

    private enum Step: Hashable {
        case services(next: UInt16)
        case characteristics(next: UInt16)
        case descriptors(next: UInt16)
        case subscribing
        case readingBattery
        case readingFirmware
        case done
    }

    private struct Service { var start: UInt16, end: UInt16, uuid: BluetoothUUID }
    private struct Characteristic { var declaration: UInt16, value: UInt16, properties: UInt8, uuid: BluetoothUUID }

    private var step: Step = .services(next: 0x0001)
    private var services: [Service] = []
    private var characteristics: [Characteristic] = []
    private(set) var measurementHandle: UInt16?
    private var cccdHandle: UInt16?
    private var pending: ATTOpcode?
    private(set) var deadlineMs: Int64?

    init() {}

    /// Begins discovery.
    mutating func start(nowMs: Int64) -> [Output] {
        step = .services(next: 0x0001)
        return [request(.readByGroupTypeRequest(start: 0x0001, end: 0xFFFF, type: .primaryService), nowMs: nowMs)]
    }

    mutating func onDeadline(nowMs: Int64) -> [Output] {
        guard let deadline = deadlineMs, nowMs >= deadline else { return [] }
        deadlineMs = nil
        pending = nil
        step = .done
        return [.failed(.transactionTimeout)]
    }

    /// One PDU from the strap.
    mutating func receive(_ bytes: [UInt8], nowMs: Int64) -> [Output] {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(bytes: bytes)
        } catch {
            // A malformed request still gets an answer (Vol 3 Part F §3.4.1.1); other junk is dropped.
            if let opcode = error.opcode, opcode.isRequest {
                return [.send(ATTPDU.errorResponse(request: opcode, handle: 0, error: .invalidPDU).encoded())]
            }
            return []
        }
        switch pdu {
        case .handleValueNotification(let handle, let value):
            return handle == measurementHandle ? [.measurement(value)] : []
        case .handleValueIndication(let handle, let value):
            let confirm = Output.send(ATTPDU.handleValueConfirmation.encoded())
            return handle == measurementHandle ? [confirm, .measurement(value)] : [confirm]
        case .exchangeMTURequest:
            return [.send(ATTPDU.exchangeMTUResponse(serverRxMTU: Self.defaultMTU).encoded())]
        case .findInformationRequest(let start, _), .readByTypeRequest(let start, _, _),
            .readByGroupTypeRequest(let start, _, _), .findByTypeValueRequest(let start, _, _, _):
            return [.send(ATTPDU.errorResponse(request: pdu.opcode, handle: start, error: .attributeNotFound).encoded())]
        case .readRequest(let handle), .readBlobRequest(let handle, _), .writeRequest(let handle, _):
            return [.send(ATTPDU.errorResponse(request: pdu.opcode, handle: handle, error: .invalidHandle).encoded())]
        case .writeCommand, .handleValueConfirmation:
            return []
        case .other(let opcode, _):
            if opcode.isCommand || !opcode.isRequest { return [] }
            return [.send(ATTPDU.errorResponse(request: opcode, handle: 0, error: .requestNotSupported).encoded())]
        default:
            return response(pdu, nowMs: nowMs)
        }
    }

    // MARK: Responses to our requests

    private mutating func response(_ pdu: ATTPDU, nowMs: Int64) -> [Output] {
        guard let request = pending else { return [] }  // unsolicited response: ignored (§3.3)
        let answered: Bool
        if case .errorResponse(let errored, _, _) = pdu { answered = errored == request } else {
            answered = request.responseOpcode == pdu.opcode
        }
        guard answered else { return [] }
        pending = nil
        deadlineMs = nil

        if case .errorResponse(_, _, let error) = pdu {
            return errorResponse(error, to: request, nowMs: nowMs)
        }
        switch (step, pdu) {
        case (.services, .readByGroupTypeResponse(let groups)):
            for group in groups {
                guard let uuid = BluetoothUUID(littleEndian: group.value), group.groupEnd >= group.handle else {
                    return fail(.malformedResponse("service group \(group.handle)–\(group.groupEnd)"))
                }
                services.append(Service(start: group.handle, end: group.groupEnd, uuid: uuid))
            }
            let last = groups.last?.groupEnd ?? 0xFFFF
            if last == 0xFFFF || groups.isEmpty { return afterServices(nowMs: nowMs) }
            step = .services(next: last + 1)
            return [self.request(.readByGroupTypeRequest(start: last + 1, end: 0xFFFF, type: .primaryService), nowMs: nowMs)]
        case (.characteristics, .readByTypeResponse(let entries)):
            for entry in entries {
                guard entry.value.count == 5 || entry.value.count == 19,
                    let uuid = BluetoothUUID(littleEndian: Array(entry.value[3...]))
                else { return fail(.malformedResponse("characteristic declaration \(entry.handle)")) }
                let value = UInt16(entry.value[1]) | UInt16(entry.value[2]) << 8
                characteristics.append(
                    Characteristic(declaration: entry.handle, value: value, properties: entry.value[0], uuid: uuid))
            }
            let last = entries.last?.handle ?? 0xFFFF
            if last == 0xFFFF || entries.isEmpty { return afterCharacteristics(nowMs: nowMs) }
            step = .characteristics(next: last + 1)
            return [self.request(.readByTypeRequest(start: last + 1, end: 0xFFFF, type: .characteristic), nowMs: nowMs)]
        case (.descriptors, .findInformationResponse(let entries)):
            if let cccd = entries.first(where: { $0.type == .clientCharacteristicConfiguration }) {
                cccdHandle = cccd.handle
                return subscribe(nowMs: nowMs)
            }
            let last = entries.last?.handle ?? 0xFFFF
            let end = measurementEnd
            if last >= end { return fail(.noCCCD) }
            step = .descriptors(next: last + 1)
            return [self.request(.findInformationRequest(start: last + 1, end: end), nowMs: nowMs)]
        case (.subscribing, .writeResponse):
            return [.subscribed] + readBattery(nowMs: nowMs)
        case (.readingBattery, .readResponse(let value)):
            let battery: [Output] = value.first.map { [.battery(min($0, 100))] } ?? []
            return battery + readFirmware(nowMs: nowMs)
        case (.readingFirmware, .readResponse(let value)):
            step = .done
            let text = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
            return [.firmware(text)]
        default:
            return fail(.malformedResponse("\(pdu.opcode) while waiting for \(request)"))
        }
    }

    private mutating func errorResponse(_ error: ATTError, to request: ATTOpcode, nowMs: Int64) -> [Output] {
        switch step {
        case .services where error == .attributeNotFound: return afterServices(nowMs: nowMs)
        case .characteristics where error == .attributeNotFound: return afterCharacteristics(nowMs: nowMs)
        case .descriptors where error == .attributeNotFound: return fail(.noCCCD)
        // Battery and firmware are worth having, not worth the link.
        case .readingBattery: return readFirmware(nowMs: nowMs)
        case .readingFirmware:
            step = .done
            return []
        default: return fail(.attError(request: request, error: error))
        }
    }

    // MARK: Steps

    private mutating func afterServices(nowMs: Int64) -> [Output] {
        guard services.contains(where: { $0.uuid == .heartRate }) else { return fail(.noHeartRateMeasurement) }
        step = .characteristics(next: 0x0001)
        return [request(.readByTypeRequest(start: 0x0001, end: 0xFFFF, type: .characteristic), nowMs: nowMs)]
    }

    private mutating func afterCharacteristics(nowMs: Int64) -> [Output] {
        guard let hr = characteristic(.heartRateMeasurement, in: .heartRate) else {
            return fail(.noHeartRateMeasurement)
        }
        measurementHandle = hr.value
        guard hr.value < measurementEnd else { return fail(.noCCCD) }
        step = .descriptors(next: hr.value + 1)
        return [request(.findInformationRequest(start: hr.value + 1, end: measurementEnd), nowMs: nowMs)]
    }

    private mutating func subscribe(nowMs: Int64) -> [Output] {
        guard let cccd = cccdHandle else { return fail(.noCCCD) }
        step = .subscribing
        // Notifications on (bit 0), Vol 3 Part G §3.3.3.3.
        return [request(.writeRequest(handle: cccd, value: [0x01, 0x00]), nowMs: nowMs)]
    }

    private mutating func readBattery(nowMs: Int64) -> [Output] {
        guard let battery = characteristic(.batteryLevel, in: .battery) else { return readFirmware(nowMs: nowMs) }
        step = .readingBattery
        return [request(.readRequest(handle: battery.value), nowMs: nowMs)]
    }

    private mutating func readFirmware(nowMs: Int64) -> [Output] {
        guard let firmware = characteristic(.firmwareRevisionString, in: .deviceInformation) else {
            step = .done
            return []
        }
        step = .readingFirmware
        return [request(.readRequest(handle: firmware.value), nowMs: nowMs)]
    }

    // MARK: Helpers

    private mutating func request(_ pdu: ATTPDU, nowMs: Int64) -> Output {
        pending = pdu.opcode
        deadlineMs = nowMs + Self.transactionTimeoutMs
        return .send(pdu.encoded())
    }

    private mutating func fail(_ failure: Failure) -> [Output] {
        step = .done
        pending = nil
        deadlineMs = nil
        return [.failed(failure)]
    }

    private func service(_ uuid: BluetoothUUID) -> Service? { services.first { $0.uuid == uuid } }

    private func characteristic(_ uuid: BluetoothUUID, in serviceUUID: BluetoothUUID) -> Characteristic? {
        guard let service = service(serviceUUID) else { return nil }
        return characteristics.first { $0.uuid == uuid && $0.declaration >= service.start && $0.declaration <= service.end }
    }

    /// The last handle of the HR Measurement characteristic: before the next declaration, or the
    /// service's end.
    private var measurementEnd: UInt16 {
        guard let hrService = service(.heartRate), let handle = measurementHandle else { return 0 }
        let next = characteristics.map(\.declaration).filter { $0 > handle && $0 <= hrService.end }.min()
        return next.map { $0 - 1 } ?? hrService.end
    }
}

/// The server side of the Attribute Protocol over one attribute database: the virtual strap's
/// GATT server, testable without a socket. Feed it each received PDU; it answers every request
/// as Bluetooth Core 5.3 Vol 3 Part F §3.4 says, tracks CCCD subscriptions and builds
/// notifications sized to the negotiated ATT_MTU.
public struct GATTServer: Sendable {
    public enum Event: Hashable, Sendable {
        /// A new connection: ATT_MTU back to 23, subscriptions cleared (CCCDs of an unbonded
        /// client do not survive a reconnection, Vol 3 Part G §3.3.3.3).
        case connected
        /// One PDU from the client.
        case received([UInt8])
    }

    public enum Action: Hashable, Sendable {
        /// Send these octets to the client.
        case send([UInt8])
        /// The client wrote a CCCD.
        case subscriptionChanged(valueHandle: UInt16, notify: Bool, indicate: Bool)
        /// ATT_MTU changed through an MTU exchange.
        case mtuChanged(Int)
        /// The client wrote a characteristic value (other than a CCCD).
        case written(handle: UInt16, value: [UInt8])
        /// Octets that were not a well-formed PDU (answered "Invalid PDU" when it was a request).
        case malformed(ATTDecodingError)
    }

    public static let defaultMTU = 23

    public private(set) var database: AttributeDatabase
    /// The server's Rx MTU offered in an MTU exchange.
    public let serverRxMTU: UInt16
    public private(set) var attMTU = GATTServer.defaultMTU

    public init(database: AttributeDatabase, serverRxMTU: UInt16 = 247) {
        self.database = database
        self.serverRxMTU = max(serverRxMTU, UInt16(Self.defaultMTU))
    }

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .connected:
            attMTU = Self.defaultMTU
            for attribute in database.attributes where attribute.type == .clientCharacteristicConfiguration {
                database.setValue([0, 0], at: attribute.handle)
            }
            return []
        case .received(let bytes):
            return receive(bytes)
        }
    }

    /// Whether the client asked for notifications of the value at `valueHandle`.
    public func isNotifying(_ valueHandle: UInt16) -> Bool { cccdBits(valueHandle) & 1 != 0 }

    public func isIndicating(_ valueHandle: UInt16) -> Bool { cccdBits(valueHandle) & 2 != 0 }

    private func cccdBits(_ valueHandle: UInt16) -> UInt8 {
        guard let cccd = cccdHandle(forValue: valueHandle), let value = database.attribute(cccd)?.value.first else {
            return 0
        }
        return value
    }

    /// Sets a value (e.g. a new battery level) and returns the notification to send, if the
    /// client subscribed. The value is cut to ATT_MTU − 3 (Vol 3 Part F §3.4.7.1).
    public mutating func update(_ value: [UInt8], at valueHandle: UInt16) -> [UInt8]? {
        database.setValue(value, at: valueHandle)
        return notification(value, at: valueHandle)
    }

    /// A Handle Value Notification for `value`, or nil if the client has not enabled notifications.
    public func notification(_ value: [UInt8], at valueHandle: UInt16) -> [UInt8]? {
        guard isNotifying(valueHandle) else { return nil }
        return ATTPDU.handleValueNotification(handle: valueHandle, value: Array(value.prefix(attMTU - 3))).encoded()
    }

    private func cccdHandle(forValue valueHandle: UInt16) -> UInt16? {
        var handle = valueHandle
        while handle < database.lastHandle {
            handle += 1
            guard let attribute = database.attribute(handle), attribute.type != .characteristic,
                attribute.type != .primaryService, attribute.type != .secondaryService
            else { return nil }
            if attribute.type == .clientCharacteristicConfiguration { return handle }
        }
        return nil
    }

    private mutating func receive(_ bytes: [UInt8]) -> [Action] {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(bytes: bytes)
        } catch {
            // A malformed request still needs an answer, or the client waits out its 30 s timeout.
            if let opcode = error.opcode, opcode.isRequest {
                return [.malformed(error), .send(errorResponse(opcode, 0, .invalidPDU))]
            }
            return [.malformed(error)]
        }
        switch pdu {
        case .exchangeMTURequest(let clientRxMTU):
            // Vol 3 Part F §3.4.2.2: ATT_MTU = min(client Rx MTU, server Rx MTU), never below 23.
            let mtu = max(Self.defaultMTU, min(Int(clientRxMTU), Int(serverRxMTU)))
            let changed = mtu != attMTU
            attMTU = mtu
            let reply: [Action] = [.send(ATTPDU.exchangeMTUResponse(serverRxMTU: serverRxMTU).encoded())]
            return changed ? reply + [.mtuChanged(mtu)] : reply
        case .readByGroupTypeRequest(let start, let end, let type):
            return [.send(readByGroupType(start, end, type))]
        case .readByTypeRequest(let start, let end, let type):
            return [.send(readByType(start, end, type))]
        case .findInformationRequest(let start, let end):
            return [.send(findInformation(start, end))]
        case .findByTypeValueRequest(let start, let end, let type, let value):
            return [.send(findByTypeValue(start, end, type, value))]
        case .readRequest(let handle):
            return [.send(read(handle, offset: nil))]
        case .readBlobRequest(let handle, let offset):
            return [.send(read(handle, offset: offset))]
        case .writeRequest(let handle, let value):
            return write(handle, value, respond: true)
        case .writeCommand(let handle, let value):
            return write(handle, value, respond: false)
        case .handleValueIndication:
            return [.send(ATTPDU.handleValueConfirmation.encoded())]
        case .other(let opcode, _) where opcode.isRequest:
            // Read Multiple, Prepare/Execute Write and unknown requests (§3.4.1.1).
            return [.send(errorResponse(opcode, 0, .requestNotSupported))]
        default:
            // Responses, notifications, confirmations and commands the server does not serve.
            return []
        }
    }

    private func errorResponse(_ request: ATTOpcode, _ handle: UInt16, _ error: ATTError) -> [UInt8] {
        ATTPDU.errorResponse(request: request, handle: handle, error: error).encoded()
    }

    /// §3.4.4.9: primary (or secondary) services whose declarations lie in the range, one value
    /// length per response.
    private func readByGroupType(_ start: UInt16, _ end: UInt16, _ type: BluetoothUUID) -> [UInt8] {
        let op = ATTOpcode.readByGroupTypeRequest
        guard start != 0, start <= end else { return errorResponse(op, start, .invalidHandle) }
        guard type == .primaryService || type == .secondaryService else {
            return errorResponse(op, start, .unsupportedGroupType)
        }
        var list: [ATTPDU.GroupValue] = []
        var used = 2
        for a in database.range(start, end) where a.type == type {
            let value = Array(a.value.prefix(min(attMTU - 6, 251)))
            if let first = list.first, first.value.count != value.count { break }
            if used + 4 + value.count > attMTU { break }
            used += 4 + value.count
            list.append(ATTPDU.GroupValue(handle: a.handle, groupEnd: a.groupEnd, value: value))
        }
        guard !list.isEmpty else { return errorResponse(op, start, .attributeNotFound) }
        return ATTPDU.readByGroupTypeResponse(list).encoded()
    }

    /// §3.4.4.1: readable attributes of one type in the range; an unreadable first match is an error.
    private func readByType(_ start: UInt16, _ end: UInt16, _ type: BluetoothUUID) -> [UInt8] {
        let op = ATTOpcode.readByTypeRequest
        guard start != 0, start <= end else { return errorResponse(op, start, .invalidHandle) }
        var list: [ATTPDU.HandleValue] = []
        var used = 2
        for a in database.range(start, end) where a.type == type {
            guard a.isReadable else {
                if list.isEmpty { return errorResponse(op, a.handle, .readNotPermitted) }
                break
            }
            let value = Array(a.value.prefix(min(attMTU - 4, 253)))
            if let first = list.first, first.value.count != value.count { break }
            if used + 2 + value.count > attMTU { break }
            used += 2 + value.count
            list.append(ATTPDU.HandleValue(handle: a.handle, value: value))
        }
        guard !list.isEmpty else { return errorResponse(op, start, .attributeNotFound) }
        return ATTPDU.readByTypeResponse(list).encoded()
    }

    /// §3.4.3.1: handles and types in the range, one UUID format per response.
    private func findInformation(_ start: UInt16, _ end: UInt16) -> [UInt8] {
        let op = ATTOpcode.findInformationRequest
        guard start != 0, start <= end else { return errorResponse(op, start, .invalidHandle) }
        var list: [ATTPDU.HandleType] = []
        var used = 2
        for a in database.range(start, end) {
            let short = a.type.uuid16 != nil
            if let first = list.first, (first.type.uuid16 != nil) != short { break }
            let size = 2 + (short ? 2 : 16)
            if used + size > attMTU { break }
            used += size
            list.append(ATTPDU.HandleType(handle: a.handle, type: a.type))
        }
        guard !list.isEmpty else { return errorResponse(op, start, .attributeNotFound) }
        return ATTPDU.findInformationResponse(list).encoded()
    }

    /// §3.4.3.3: attributes of a 16-bit type with exactly this value, with their group ends.
    private func findByTypeValue(_ start: UInt16, _ end: UInt16, _ type: UInt16, _ value: [UInt8]) -> [UInt8] {
        let op = ATTOpcode.findByTypeValueRequest
        guard start != 0, start <= end else { return errorResponse(op, start, .invalidHandle) }
        var list: [ATTPDU.HandleGroup] = []
        for a in database.range(start, end) where a.type == BluetoothUUID(type) && a.isReadable && a.value == value {
            if 1 + 4 * (list.count + 1) > attMTU { break }
            list.append(ATTPDU.HandleGroup(found: a.handle, groupEnd: a.groupEnd))
        }
        guard !list.isEmpty else { return errorResponse(op, start, .attributeNotFound) }
        return ATTPDU.findByTypeValueResponse(list).encoded()
    }

    /// §3.4.4.3 and §3.4.4.5: a value, or the part of it from `offset`, cut to ATT_MTU − 1.
    private func read(_ handle: UInt16, offset: UInt16?) -> [UInt8] {
        let op: ATTOpcode = offset == nil ? .readRequest : .readBlobRequest
        guard let a = database.attribute(handle) else { return errorResponse(op, handle, .invalidHandle) }
        guard a.isReadable else { return errorResponse(op, handle, .readNotPermitted) }
        guard let offset else { return ATTPDU.readResponse(value: Array(a.value.prefix(attMTU - 1))).encoded() }
        guard Int(offset) <= a.value.count else { return errorResponse(op, handle, .invalidOffset) }
        return ATTPDU.readBlobResponse(value: Array(a.value[Int(offset)...].prefix(attMTU - 1))).encoded()
    }

    /// §3.4.5.1 / §3.4.5.3; a CCCD takes two octets whose bits its characteristic supports
    /// (Vol 3 Part G §3.3.3.3; Supplement Part B §1.2 for 0xFD).
    private mutating func write(_ handle: UInt16, _ value: [UInt8], respond: Bool) -> [Action] {
        func fail(_ error: ATTError) -> [Action] {
            respond ? [.send(errorResponse(.writeRequest, handle, error))] : []
        }
        guard let a = database.attribute(handle) else { return fail(.invalidHandle) }
        guard a.isWritable else { return fail(.writeNotPermitted) }
        let ok: [Action] = respond ? [.send(ATTPDU.writeResponse.encoded())] : []
        guard a.type == .clientCharacteristicConfiguration else {
            database.setValue(value, at: handle)
            return ok + [.written(handle: handle, value: value)]
        }
        guard value.count == 2 else { return fail(.invalidAttributeValueLength) }
        let valueHandle = characteristicValueHandle(ofDescriptor: handle)
        let properties = valueHandle.flatMap { database.properties(ofValue: $0) } ?? []
        var allowed: UInt16 = 0
        if properties.contains(.notify) { allowed |= 1 }
        if properties.contains(.indicate) { allowed |= 2 }
        let bits = UInt16(value[0]) | UInt16(value[1]) << 8
        guard bits & ~allowed == 0, let valueHandle else { return fail(.cccdImproperlyConfigured) }
        database.setValue(value, at: handle)
        return ok + [.subscriptionChanged(valueHandle: valueHandle, notify: bits & 1 != 0, indicate: bits & 2 != 0)]
    }

    /// The value handle of the characteristic a descriptor belongs to.
    private func characteristicValueHandle(ofDescriptor handle: UInt16) -> UInt16? {
        var h = handle
        while h > 1 {
            h -= 1
            guard let a = database.attribute(h) else { return nil }
            if a.type == .primaryService || a.type == .secondaryService { return nil }
            if a.type == .characteristic, a.value.count >= 3 { return UInt16(a.value[1]) | UInt16(a.value[2]) << 8 }
        }
        return nil
    }
}

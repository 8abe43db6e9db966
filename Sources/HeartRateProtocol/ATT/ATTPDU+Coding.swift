extension ATTPDU {
    /// Decodes one PDU (one L2CAP SDU on the ATT channel). Parameter lengths are checked exactly
    /// against Vol 3 Part F §3.4; list responses must divide into whole entries.
    public init(bytes: [UInt8]) throws(ATTDecodingError) {
        guard let first = bytes.first else { throw .empty }
        let opcode = ATTOpcode(rawValue: first)
        var r = ByteReader(bytes, offset: 1)
        let n = bytes.count - 1
        func length(_ ok: Bool) throws(ATTDecodingError) {
            if !ok { throw .invalidLength(opcode: opcode, parameterLength: n) }
        }
        /// A Read By (Group) Type Response's entry length (its first octet), at least `minimum`, that the rest
        /// divides into whole entries.
        func entryLength(minimum: Int) throws(ATTDecodingError) -> Int {
            try length(n >= 1)
            let entry = Int(r.u8() ?? 0)
            guard entry >= minimum, n - 1 >= entry, (n - 1) % entry == 0 else {
                throw .invalidList(opcode: opcode, elementLength: entry, parameterLength: n)
            }
            return entry
        }
        // `r` is checked by `length(...)` before each read, so the `?? 0` defaults are never taken.
        switch opcode {
        case .errorResponse:
            try length(n == 4)
            self = .errorResponse(
                request: ATTOpcode(rawValue: r.u8() ?? 0), handle: r.u16() ?? 0, error: ATTError(rawValue: r.u8() ?? 0))
        case .exchangeMTURequest:
            try length(n == 2)
            self = .exchangeMTURequest(clientRxMTU: r.u16() ?? 0)
        case .exchangeMTUResponse:
            try length(n == 2)
            self = .exchangeMTUResponse(serverRxMTU: r.u16() ?? 0)
        case .findInformationRequest:
            try length(n == 4)
            self = .findInformationRequest(start: r.u16() ?? 0, end: r.u16() ?? 0)
        case .findInformationResponse:
            try length(n >= 1)
            let format = r.u8() ?? 0
            let uuidLength = format == 1 ? 2 : format == 2 ? 16 : 0
            let entry = 2 + uuidLength
            guard uuidLength > 0, n - 1 >= entry, (n - 1) % entry == 0 else {
                throw .invalidList(opcode: opcode, elementLength: uuidLength == 0 ? 0 : entry, parameterLength: n)
            }
            var list: [HandleType] = []
            while let handle = r.u16(), let raw = r.take(uuidLength), let uuid = BluetoothUUID(littleEndian: raw) {
                list.append(HandleType(handle: handle, type: uuid))
            }
            self = .findInformationResponse(list)
        case .findByTypeValueRequest:
            try length(n >= 6)
            self = .findByTypeValueRequest(start: r.u16() ?? 0, end: r.u16() ?? 0, type: r.u16() ?? 0, value: r.rest())
        case .findByTypeValueResponse:
            guard n >= 4, n % 4 == 0 else { throw .invalidList(opcode: opcode, elementLength: 4, parameterLength: n) }
            var list: [HandleGroup] = []
            while let found = r.u16(), let end = r.u16() { list.append(HandleGroup(found: found, groupEnd: end)) }
            self = .findByTypeValueResponse(list)
        case .readByTypeRequest, .readByGroupTypeRequest:
            try length(n == 6 || n == 20)
            let start = r.u16() ?? 0
            let end = r.u16() ?? 0
            let type = BluetoothUUID(littleEndian: r.rest()) ?? BluetoothUUID(0)
            self =
                opcode == .readByTypeRequest
                ? .readByTypeRequest(start: start, end: end, type: type)
                : .readByGroupTypeRequest(start: start, end: end, type: type)
        case .readByTypeResponse:
            let entry = try entryLength(minimum: 2)
            var list: [HandleValue] = []
            while let handle = r.u16(), let value = r.take(entry - 2) {
                list.append(HandleValue(handle: handle, value: value))
            }
            self = .readByTypeResponse(list)
        case .readRequest:
            try length(n == 2)
            self = .readRequest(handle: r.u16() ?? 0)
        case .readResponse:
            self = .readResponse(value: r.rest())
        case .readBlobRequest:
            try length(n == 4)
            self = .readBlobRequest(handle: r.u16() ?? 0, offset: r.u16() ?? 0)
        case .readBlobResponse:
            self = .readBlobResponse(value: r.rest())
        case .readByGroupTypeResponse:
            let entry = try entryLength(minimum: 4)
            var list: [GroupValue] = []
            while let handle = r.u16(), let end = r.u16(), let value = r.take(entry - 4) {
                list.append(GroupValue(handle: handle, groupEnd: end, value: value))
            }
            self = .readByGroupTypeResponse(list)
        case .writeRequest, .writeCommand, .handleValueNotification, .handleValueIndication:
            try length(n >= 2)
            let handle = r.u16() ?? 0
            let value = r.rest()
            switch opcode {
            case .writeRequest: self = .writeRequest(handle: handle, value: value)
            case .writeCommand: self = .writeCommand(handle: handle, value: value)
            case .handleValueNotification: self = .handleValueNotification(handle: handle, value: value)
            default: self = .handleValueIndication(handle: handle, value: value)
            }
        case .writeResponse:
            try length(n == 0)
            self = .writeResponse
        case .handleValueConfirmation:
            try length(n == 0)
            self = .handleValueConfirmation
        default:
            self = .other(opcode: opcode, parameters: r.rest())
        }
    }

    /// The wire form. Read By Type / Read By Group Type Response lists must hold one value length
    /// (at most 253 / 251 octets):
    /// a server builds them so, and breaking that is a programming error.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [opcode.rawValue]
        switch self {
        case .errorResponse(let request, let handle, let error):
            out.append(request.rawValue)
            out.appendLE(handle)
            out.append(error.rawValue)
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            out.appendLE(mtu)
        case .findInformationRequest(let start, let end):
            out.appendLE(start)
            out.appendLE(end)
        case .findInformationResponse(let list):
            // Format 1 only when every type has a 16-bit form; any UUID can be written out in full.
            let short = list.allSatisfy { $0.type.uuid16 != nil }
            out.append(short ? 1 : 2)
            for entry in list {
                out.appendLE(entry.handle)
                out += short ? entry.type.attBytes : entry.type.full128Bytes
            }
        case .findByTypeValueRequest(let start, let end, let type, let value):
            out.appendLE(start)
            out.appendLE(end)
            out.appendLE(type)
            out += value
        case .findByTypeValueResponse(let list):
            for entry in list {
                out.appendLE(entry.found)
                out.appendLE(entry.groupEnd)
            }
        case .readByTypeRequest(let start, let end, let type), .readByGroupTypeRequest(let start, let end, let type):
            out.appendLE(start)
            out.appendLE(end)
            out += type.attBytes
        case .readByTypeResponse(let list):
            let valueLength = list.first?.value.count ?? 0
            precondition(valueLength <= 253, "a Read By Type entry holds at most 253 value octets")
            out.append(UInt8(2 + valueLength))
            for entry in list {
                precondition(entry.value.count == valueLength, "one value length per Read By Type Response")
                out.appendLE(entry.handle)
                out += entry.value
            }
        case .readRequest(let handle):
            out.appendLE(handle)
        case .readResponse(let value), .readBlobResponse(let value):
            out += value
        case .readBlobRequest(let handle, let offset):
            out.appendLE(handle)
            out.appendLE(offset)
        case .readByGroupTypeResponse(let list):
            let valueLength = list.first?.value.count ?? 0
            precondition(valueLength <= 251, "a Read By Group Type entry holds at most 251 value octets")
            out.append(UInt8(4 + valueLength))
            for entry in list {
                precondition(entry.value.count == valueLength, "one value length per Read By Group Type Response")
                out.appendLE(entry.handle)
                out.appendLE(entry.groupEnd)
                out += entry.value
            }
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
            .handleValueNotification(let handle, let value), .handleValueIndication(let handle, let value):
            out.appendLE(handle)
            out += value
        case .writeResponse, .handleValueConfirmation:
            break
        case .other(_, let parameters):
            out += parameters
        }
        return out
    }
}

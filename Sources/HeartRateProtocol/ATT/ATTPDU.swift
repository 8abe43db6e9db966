/// One Attribute Protocol PDU: opcode plus parameters (Bluetooth Core 5.3 Vol 3 Part F §3.3, §3.4).
/// Opcodes the box neither sends nor serves (Read Multiple, Prepare/Execute Write, Signed Write…)
/// decode to `.other` so that a server can still answer them "Request Not Supported".
public enum ATTPDU: Hashable, Sendable {
    /// §3.4.1.1
    case errorResponse(request: ATTOpcode, handle: UInt16, error: ATTError)
    /// §3.4.2.1, §3.4.2.2
    case exchangeMTURequest(clientRxMTU: UInt16)
    case exchangeMTUResponse(serverRxMTU: UInt16)
    /// §3.4.3.1, §3.4.3.2
    case findInformationRequest(start: UInt16, end: UInt16)
    case findInformationResponse([HandleType])
    /// §3.4.3.3, §3.4.3.4
    case findByTypeValueRequest(start: UInt16, end: UInt16, type: UInt16, value: [UInt8])
    case findByTypeValueResponse([HandleGroup])
    /// §3.4.4.1, §3.4.4.2
    case readByTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByTypeResponse([HandleValue])
    /// §3.4.4.3, §3.4.4.4
    case readRequest(handle: UInt16)
    case readResponse(value: [UInt8])
    /// §3.4.4.5, §3.4.4.6
    case readBlobRequest(handle: UInt16, offset: UInt16)
    case readBlobResponse(value: [UInt8])
    /// §3.4.4.9, §3.4.4.10
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: BluetoothUUID)
    case readByGroupTypeResponse([GroupValue])
    /// §3.4.5.1, §3.4.5.2, §3.4.5.3
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case writeCommand(handle: UInt16, value: [UInt8])
    /// §3.4.7.1, §3.4.7.2, §3.4.7.3
    case handleValueNotification(handle: UInt16, value: [UInt8])
    case handleValueIndication(handle: UInt16, value: [UInt8])
    case handleValueConfirmation
    /// Any other opcode, parameters kept as received.
    case other(opcode: ATTOpcode, parameters: [UInt8])

    /// A Find Information Response entry: a handle and its attribute type.
    public struct HandleType: Hashable, Sendable {
        public var handle: UInt16
        public var type: BluetoothUUID
        public init(handle: UInt16, type: BluetoothUUID) {
            self.handle = handle
            self.type = type
        }
    }

    /// A Find By Type Value Response entry: the found attribute and the end of its group.
    public struct HandleGroup: Hashable, Sendable {
        public var found: UInt16
        public var groupEnd: UInt16
        public init(found: UInt16, groupEnd: UInt16) {
            self.found = found
            self.groupEnd = groupEnd
        }
    }

    /// A Read By Type Response entry.
    public struct HandleValue: Hashable, Sendable {
        public var handle: UInt16
        public var value: [UInt8]
        public init(handle: UInt16, value: [UInt8]) {
            self.handle = handle
            self.value = value
        }
    }

    /// A Read By Group Type Response entry: a group's first and last handle and its value.
    public struct GroupValue: Hashable, Sendable {
        public var handle: UInt16
        public var groupEnd: UInt16
        public var value: [UInt8]
        public init(handle: UInt16, groupEnd: UInt16, value: [UInt8]) {
            self.handle = handle
            self.groupEnd = groupEnd
            self.value = value
        }
    }

    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: .errorResponse
        case .exchangeMTURequest: .exchangeMTURequest
        case .exchangeMTUResponse: .exchangeMTUResponse
        case .findInformationRequest: .findInformationRequest
        case .findInformationResponse: .findInformationResponse
        case .findByTypeValueRequest: .findByTypeValueRequest
        case .findByTypeValueResponse: .findByTypeValueResponse
        case .readByTypeRequest: .readByTypeRequest
        case .readByTypeResponse: .readByTypeResponse
        case .readRequest: .readRequest
        case .readResponse: .readResponse
        case .readBlobRequest: .readBlobRequest
        case .readBlobResponse: .readBlobResponse
        case .readByGroupTypeRequest: .readByGroupTypeRequest
        case .readByGroupTypeResponse: .readByGroupTypeResponse
        case .writeRequest: .writeRequest
        case .writeResponse: .writeResponse
        case .writeCommand: .writeCommand
        case .handleValueNotification: .handleValueNotification
        case .handleValueIndication: .handleValueIndication
        case .handleValueConfirmation: .handleValueConfirmation
        case .other(let opcode, _): opcode
        }
    }
}

/// Why received octets are not a well-formed ATT PDU. `opcode` lets a server answer a malformed
/// request with "Invalid PDU" (Vol 3 Part F §3.4.1.1).
public enum ATTDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Zero octets: no opcode.
    case empty
    /// The parameters have a length this opcode never has.
    case invalidLength(opcode: ATTOpcode, parameterLength: Int)
    /// A response list whose element length or format octet is impossible, or that does not
    /// divide into whole elements.
    case invalidList(opcode: ATTOpcode, elementLength: Int, parameterLength: Int)

    public var opcode: ATTOpcode? {
        switch self {
        case .empty: nil
        case .invalidLength(let opcode, _), .invalidList(let opcode, _, _): opcode
        }
    }

    public var description: String {
        switch self {
        case .empty: "empty ATT PDU"
        case .invalidLength(let opcode, let length): "\(opcode) with \(length) parameter bytes is malformed"
        case .invalidList(let opcode, let element, let length):
            "\(opcode) list of \(length) bytes does not divide into \(element)-byte entries"
        }
    }
}

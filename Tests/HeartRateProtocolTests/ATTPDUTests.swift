import Testing

@testable import HeartRateProtocol

/// Byte scripts hand-assembled from the PDU layouts of Bluetooth Core 5.3 Vol 3 Part F §3.4.
@Suite("ATT PDU codec (Core 5.3 Vol 3 Part F §3.4)")
struct ATTPDUTests {
    /// (section, bytes, expected PDU)
    static let vectors: [(String, String, ATTPDU)] = [
        (
            "§3.4.1.1", "01 10 01 00 0A",
            .errorResponse(request: .readByGroupTypeRequest, handle: 1, error: .attributeNotFound)
        ),
        ("§3.4.2.1", "02 F7 00", .exchangeMTURequest(clientRxMTU: 247)),
        ("§3.4.2.2", "03 17 00", .exchangeMTUResponse(serverRxMTU: 23)),
        ("§3.4.3.1", "04 0E 00 FF FF", .findInformationRequest(start: 14, end: 0xFFFF)),
        (
            "§3.4.3.2", "05 01 0E 00 02 29 0F 00 04 29",
            .findInformationResponse([
                .init(handle: 14, type: .clientCharacteristicConfiguration),
                .init(handle: 15, type: BluetoothUUID(0x2904)),
            ])
        ),
        (
            "§3.4.3.3", "06 01 00 FF FF 00 28 0D 18",
            .findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: [0x0D, 0x18])
        ),
        ("§3.4.3.4", "07 0C 00 11 00", .findByTypeValueResponse([.init(found: 12, groupEnd: 17)])),
        ("§3.4.4.1", "08 0C 00 11 00 03 28", .readByTypeRequest(start: 12, end: 17, type: .characteristic)),
        (
            "§3.4.4.2", "09 07 0D 00 10 0E 00 37 2A",
            .readByTypeResponse([.init(handle: 13, value: [0x10, 0x0E, 0x00, 0x37, 0x2A])])
        ),
        ("§3.4.4.3", "0A 0E 00", .readRequest(handle: 14)),
        ("§3.4.4.4", "0B 55", .readResponse(value: [0x55])),
        ("§3.4.4.5", "0C 20 00 16 00", .readBlobRequest(handle: 32, offset: 22)),
        ("§3.4.4.6", "0D 33 2E 31", .readBlobResponse(value: [0x33, 0x2E, 0x31])),
        ("§3.4.4.9", "10 01 00 FF FF 00 28", .readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService)),
        (
            "§3.4.4.10", "11 06 01 00 07 00 00 18 08 00 0B 00 01 18",
            .readByGroupTypeResponse([
                .init(handle: 1, groupEnd: 7, value: [0x00, 0x18]),
                .init(handle: 8, groupEnd: 11, value: [0x01, 0x18]),
            ])
        ),
        ("§3.4.5.1", "12 0F 00 01 00", .writeRequest(handle: 15, value: [1, 0])),
        ("§3.4.5.2", "13", .writeResponse),
        ("§3.4.5.3", "52 0F 00 00 00", .writeCommand(handle: 15, value: [0, 0])),
        ("§3.4.7.1", "1B 0E 00 10 3C 00 04", .handleValueNotification(handle: 14, value: [0x10, 0x3C, 0x00, 0x04])),
        ("§3.4.7.2", "1D 03 00 01 00 FF FF", .handleValueIndication(handle: 3, value: [1, 0, 0xFF, 0xFF])),
        ("§3.4.7.3", "1E", .handleValueConfirmation),
        ("§3.4.6.1", "16 0F 00 00 00 01", .other(opcode: .prepareWriteRequest, parameters: [0x0F, 0, 0, 0, 1])),
    ]

    @Test("Vol 3 Part F §3.4: each PDU decodes to its fields and encodes back to the same bytes")
    func vectorsDecodeAndEncode() throws {
        for (section, text, pdu) in Self.vectors {
            let bytes = hex(text)
            #expect(try ATTPDU(bytes: bytes) == pdu, "\(section)")
            #expect(pdu.encoded() == bytes, "\(section)")
        }
    }

    @Test("Vol 3 Part F §3.4.3.2: a 128-bit Find Information Response (format 2) decodes")
    func findInformation128() throws {
        let uuid = BluetoothUUID(value: 0xFB005C81_02E7_F387_1CAD_8ACD2D8DF0C8)
        let pdu = ATTPDU.findInformationResponse([.init(handle: 0x30, type: uuid)])
        let bytes = pdu.encoded()
        #expect(bytes.count == 1 + 1 + 18)
        #expect(bytes[1] == 2)
        #expect(try ATTPDU(bytes: bytes) == pdu)
        #expect(uuid.description == "fb005c81-02e7-f387-1cad-8acd2d8df0c8")
    }

    @Test("Vol 3 Part F §3.4: wrong parameter lengths are typed errors naming the opcode")
    func rejections() {
        #expect(throws: ATTDecodingError.empty) { try ATTPDU(bytes: []) }
        #expect(throws: ATTDecodingError.invalidLength(opcode: .readRequest, parameterLength: 1)) {
            try ATTPDU(bytes: hex("0A 0E"))
        }
        #expect(throws: ATTDecodingError.invalidLength(opcode: .readByTypeRequest, parameterLength: 5)) {
            try ATTPDU(bytes: hex("08 01 00 FF FF 03"))
        }
        #expect(throws: ATTDecodingError.invalidList(opcode: .readByTypeResponse, elementLength: 7, parameterLength: 7))
        {
            try ATTPDU(bytes: hex("09 07 0D 00 10 0E 00 37"))
        }
        #expect(
            throws: ATTDecodingError.invalidList(opcode: .findInformationResponse, elementLength: 0, parameterLength: 5)
        ) {
            try ATTPDU(bytes: hex("05 03 0E 00 02 29"))
        }
        #expect(
            throws: ATTDecodingError.invalidList(opcode: .readByGroupTypeResponse, elementLength: 3, parameterLength: 4)
        ) {
            try ATTPDU(bytes: hex("11 03 01 00 07"))
        }
        #expect(throws: ATTDecodingError.invalidLength(opcode: .writeResponse, parameterLength: 1)) {
            try ATTPDU(bytes: hex("13 00"))
        }
        #expect(ATTDecodingError.invalidLength(opcode: .readRequest, parameterLength: 1).opcode == .readRequest)
    }

    @Test("Vol 3 Part F §3.3.1–3.3.2: requests, commands and responses are told apart by opcode")
    func opcodeKinds() {
        #expect(ATTOpcode.readRequest.isRequest)
        #expect(ATTOpcode(rawValue: 0x3F).isRequest)  // unknown, no command flag: must be answered
        #expect(!ATTOpcode.writeCommand.isRequest)
        #expect(!ATTOpcode(rawValue: 0x7F).isRequest)  // unknown command: ignored
        #expect(!ATTOpcode.handleValueNotification.isRequest)
        #expect(ATTOpcode.readByGroupTypeRequest.responseOpcode == .readByGroupTypeResponse)
        #expect(ATTOpcode.handleValueIndication.responseOpcode == nil)
    }

    @Test("Vol 3 Part F §3.4: every prefix of every PDU is rejected or read consistently")
    func bytewise() {
        for (_, text, _) in Self.vectors {
            expectPrefixesConsistent(hex(text), decode: ATTPDU.init(bytes:), encode: { $0.encoded() })
        }
    }
}

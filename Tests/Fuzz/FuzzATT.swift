// libFuzzer target: the ATT PDU decoder (Core 5.3 Vol 3 Part F §3.4).
// Decoded PDUs must re-encode to bytes that decode to the same PDU.

func fuzzATT(_ bytes: [UInt8]) {
    do {
        let pdu = try ATTPDU(bytes: bytes)
        let again = try ATTPDU(bytes: pdu.encoded())
        if again != pdu { fatalError("round trip changed \(pdu) into \(again)") }
        _ = pdu.opcode.isRequest
    } catch {
        _ = error.description
        _ = error.opcode
    }
}

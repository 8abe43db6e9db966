// libFuzzer target: the management event and command decoders (BlueZ mgmt-api).
// Decoded events must re-encode to bytes that decode to the same event; decoded commands must
// reach a fixed point after one more trip (names with invalid UTF-8 are read with replacement
// characters, which re-encoding may then cut to the field's length).

func fuzzManagement(_ bytes: [UInt8]) {
    do {
        let packet = try MgmtEventPacket(bytes: bytes)
        let again = try MgmtEventPacket(bytes: packet.encoded())
        if again != packet && !hasNames(packet.event) { fatalError("event round trip changed \(packet) into \(again)") }
        if case .deviceFound(let found) = packet.event { _ = try? found.advertisingData().strapMatch }
    } catch {
        _ = error.description
    }
    do {
        let command = try MgmtCommandPacket(bytes: bytes)
        let once = try MgmtCommandPacket(bytes: command.command.encoded(index: command.index))
        let twice = try MgmtCommandPacket(bytes: once.command.encoded(index: once.index))
        if once != twice { fatalError("command round trip is not stable: \(once) vs \(twice)") }
    } catch {
        _ = error.description
    }
}

/// Events carrying name text, whose invalid UTF-8 reads back differently by design.
private func hasNames(_ event: MgmtEvent) -> Bool {
    switch event {
    case .localNameChanged: true
    case .commandComplete(_, _, .controllerInfo), .commandComplete(_, _, .localName): true
    default: false
    }
}

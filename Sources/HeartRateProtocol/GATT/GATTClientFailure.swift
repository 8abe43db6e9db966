/// Why the GATT client gave up on a link. Each reads as one sentence for the person.
public enum GATTClientFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// No response within 30 s: the bearer is unusable (Core 5.3 Vol 3 Part F §3.3.3).
    case transactionTimeout(ATTOpcode)
    /// The device lists no Heart Rate service (0x180D).
    case heartRateServiceMissing
    /// The Heart Rate service lacks its Heart Rate Measurement characteristic (0x2A37).
    case heartRateMeasurementMissing
    /// The Heart Rate Measurement characteristic cannot notify.
    case notificationsUnsupported
    /// No Client Characteristic Configuration descriptor follows the measurement.
    case cccdMissing
    /// The strap answered a required request with an error.
    case refused(ATTOpcode, ATTError)
    /// The answer to a request was not a well-formed PDU.
    case malformedResponse(ATTDecodingError)
    /// The answer was well-formed but impossible (handles outside the range asked, going
    /// backwards, declarations of the wrong size).
    case invalidResponse(ATTOpcode)

    public var description: String {
        switch self {
        case .transactionTimeout(let opcode):
            "the strap did not answer a \(opcode) within 30 s; the link must be reopened"
        case .heartRateServiceMissing: "the device has no Heart Rate service; is it a heart-rate strap?"
        case .heartRateMeasurementMissing: "the device's Heart Rate service has no Heart Rate Measurement"
        case .notificationsUnsupported: "the device's Heart Rate Measurement cannot send notifications"
        case .cccdMissing: "the device's Heart Rate Measurement has no notification switch (CCCD)"
        case .refused(let opcode, let error): "the strap refused a \(opcode): \(error)"
        case .malformedResponse(let error): "the strap sent a malformed answer: \(error)"
        case .invalidResponse(let opcode): "the strap sent an impossible \(opcode)"
        }
    }
}

/// Input the client dropped without giving up: the caller counts these (RecoveryDeck design §5:
/// malformed values are rejected and counted, never crash).
public enum MalformedInput: Hashable, Sendable, CustomStringConvertible {
    case heartRateMeasurement(HeartRateMeasurementError)
    case batteryLevel([UInt8])
    case pdu(ATTDecodingError)
    /// A response with no matching request outstanding.
    case unexpectedResponse(ATTOpcode)

    public var description: String {
        switch self {
        case .heartRateMeasurement(let error): error.description
        case .batteryLevel(let bytes): "battery level of \(bytes.count) bytes or above 100 % ignored"
        case .pdu(let error): error.description
        case .unexpectedResponse(let opcode): "unexpected \(opcode) ignored"
        }
    }
}

/// An ATT Error Response code (Bluetooth Core 5.3 Vol 3 Part F §3.4.1.1, Table 3.4; 0x80–0x9F
/// application errors; 0xE0–0xFF common profile errors, Core Specification Supplement Part B §1.2).
public struct ATTError: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let invalidHandle = ATTError(rawValue: 0x01)
    public static let readNotPermitted = ATTError(rawValue: 0x02)
    public static let writeNotPermitted = ATTError(rawValue: 0x03)
    public static let invalidPDU = ATTError(rawValue: 0x04)
    public static let insufficientAuthentication = ATTError(rawValue: 0x05)
    public static let requestNotSupported = ATTError(rawValue: 0x06)
    public static let invalidOffset = ATTError(rawValue: 0x07)
    public static let insufficientAuthorization = ATTError(rawValue: 0x08)
    public static let prepareQueueFull = ATTError(rawValue: 0x09)
    public static let attributeNotFound = ATTError(rawValue: 0x0A)
    public static let attributeNotLong = ATTError(rawValue: 0x0B)
    public static let encryptionKeySizeTooShort = ATTError(rawValue: 0x0C)
    public static let invalidAttributeValueLength = ATTError(rawValue: 0x0D)
    public static let unlikelyError = ATTError(rawValue: 0x0E)
    public static let insufficientEncryption = ATTError(rawValue: 0x0F)
    public static let unsupportedGroupType = ATTError(rawValue: 0x10)
    public static let insufficientResources = ATTError(rawValue: 0x11)
    public static let databaseOutOfSync = ATTError(rawValue: 0x12)
    public static let valueNotAllowed = ATTError(rawValue: 0x13)
    /// Common profile error: a CCCD written with a value its characteristic cannot honour.
    public static let cccdImproperlyConfigured = ATTError(rawValue: 0xFD)
    public static let procedureAlreadyInProgress = ATTError(rawValue: 0xFE)
    public static let outOfRange = ATTError(rawValue: 0xFF)

    /// One sentence a person can act on (or at least report).
    public var description: String {
        switch self {
        case .invalidHandle: "the attribute handle is invalid"
        case .readNotPermitted: "the attribute cannot be read"
        case .writeNotPermitted: "the attribute cannot be written"
        case .invalidPDU: "the request was malformed"
        case .insufficientAuthentication: "the strap requires pairing (authentication) first"
        case .requestNotSupported: "the request is not supported"
        case .invalidOffset: "the read offset is past the end of the value"
        case .insufficientAuthorization: "the strap requires authorization first"
        case .prepareQueueFull: "the prepared-write queue is full"
        case .attributeNotFound: "no attribute was found in the requested range"
        case .attributeNotLong: "the attribute is not long and cannot be read with an offset"
        case .encryptionKeySizeTooShort: "the encryption key is too short"
        case .invalidAttributeValueLength: "the value has the wrong length"
        case .unlikelyError: "the request failed for an unlikely reason"
        case .insufficientEncryption: "the strap requires an encrypted link first"
        case .unsupportedGroupType: "the grouping attribute type is not supported"
        case .insufficientResources: "the strap has insufficient resources"
        case .databaseOutOfSync: "the attribute database is out of sync"
        case .valueNotAllowed: "the value is not allowed"
        case .cccdImproperlyConfigured: "the notification setting was improperly configured"
        case .procedureAlreadyInProgress: "a procedure is already in progress"
        case .outOfRange: "the value is out of range"
        default:
            if (0x80...0x9F).contains(rawValue) {
                "application error 0x\(hex2(rawValue))"
            } else {
                "ATT error 0x\(hex2(rawValue))"
            }
        }
    }
}

/// Why octets from the management socket are not a well-formed packet.
public enum MgmtDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer than the 6 header octets.
    case shortHeader(Int)
    /// The header's parameter length disagrees with what followed it.
    case lengthMismatch(declared: Int, actual: Int)
    /// An event whose parameters have an impossible length for its code.
    case invalidEvent(MgmtEventCode, length: Int)
    /// A successful Command Complete whose return parameters do not fit its command.
    case invalidReply(MgmtOpcode, length: Int)
    /// A command whose parameters do not fit it (kernel-side decoding, for fakes).
    case invalidCommand(MgmtOpcode, length: Int)
    /// A command this codec does not know.
    case unknownCommand(MgmtOpcode)
    /// An address type other than BR/EDR, LE public or LE random.
    case unknownAddressType(UInt8)

    public var description: String {
        switch self {
        case .shortHeader(let n): "management packet of \(n) bytes is shorter than its 6-byte header"
        case .lengthMismatch(let declared, let actual):
            "management packet declares \(declared) parameter bytes but carries \(actual)"
        case .invalidEvent(let code, let length): "\(code) event with \(length) parameter bytes is malformed"
        case .invalidReply(let opcode, let length): "\(opcode) reply with \(length) bytes is malformed"
        case .invalidCommand(let opcode, let length): "\(opcode) command with \(length) parameter bytes is malformed"
        case .unknownCommand(let opcode): "unknown \(opcode)"
        case .unknownAddressType(let t): "unknown address type \(t)"
        }
    }
}

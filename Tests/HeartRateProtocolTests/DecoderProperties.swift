import Testing

@testable import HeartRateProtocol

/// Feeds a decoder every prefix of a valid input ("byte by byte"): each prefix must either be
/// rejected with the decoder's typed error or decode to a value whose encoding is that prefix or
/// decodes back to the same value (no prefix may be misread as something else, nothing may trap).
func expectPrefixesConsistent<Value: Equatable, Failure: Error>(
    _ bytes: [UInt8], decode: ([UInt8]) throws(Failure) -> Value, encode: (Value) -> [UInt8],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for end in 0...bytes.count {
        let prefix = Array(bytes[0..<end])
        do {
            let value = try decode(prefix)
            let again = encode(value)
            let reread = try? decode(again)
            #expect(
                reread == value, "prefix of \(end) bytes re-encodes to something else", sourceLocation: sourceLocation)
        } catch {
            // A typed rejection is a correct outcome for a prefix (the type is fixed by `Failure`).
            _ = error
        }
    }
}

/// Hex literal helper for byte scripts: "0A 03 00" → [0x0A, 0x03, 0x00].
func hex(_ text: String) -> [UInt8] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { UInt8($0, radix: 16)! }
}

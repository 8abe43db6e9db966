import Testing

@testable import HeartRateProtocol

/// Feeds a decoder every prefix of a valid input ("byte by byte"): each prefix must either be
/// rejected with the decoder's typed error or decode to a value whose encoding decodes back to the same
/// value (no prefix may be misread as something else, nothing may trap), and the whole input must decode:
/// a decoder that rejects everything is not consistent. Returns one sentence per problem.
func prefixInconsistencies<Value: Equatable, Failure: Error>(
    _ bytes: [UInt8], decode: ([UInt8]) throws(Failure) -> Value, encode: (Value) -> [UInt8]
) -> [String] {
    var problems: [String] = []
    for end in 0...bytes.count {
        let prefix = Array(bytes[0..<end])
        do {
            let value = try decode(prefix)
            let reread = try? decode(encode(value))
            if reread != value { problems.append("prefix of \(end) bytes re-encodes to something else") }
        } catch {
            // A typed rejection is a correct outcome for a prefix, never for the whole valid input.
            if end == bytes.count { problems.append("the whole valid input of \(end) bytes is rejected: \(error)") }
        }
    }
    return problems
}

/// Records each of `prefixInconsistencies` as a test issue at the caller.
func expectPrefixesConsistent<Value: Equatable, Failure: Error>(
    _ bytes: [UInt8], decode: ([UInt8]) throws(Failure) -> Value, encode: (Value) -> [UInt8],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for problem in prefixInconsistencies(bytes, decode: decode, encode: encode) {
        Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
}

@Suite("The byte-by-byte property itself")
struct PrefixPropertyTests {
    struct Refused: Error {}

    @Test("A decoder that rejects everything, or misreads a prefix, is reported; a sound one is not")
    func checkerCatchesBadDecoders() {
        let input: [UInt8] = [2, 7, 9]  // a length byte, then that many payload bytes
        // Sound: refuses anything but the length byte and exactly that many bytes after it.
        let sound = { (b: [UInt8]) throws(Refused) -> [UInt8] in
            guard let n = b.first, b.count == Int(n) + 1 else { throw Refused() }
            return b
        }
        #expect(prefixInconsistencies(input, decode: sound, encode: { $0 }) == [])
        let rejectsAll = { (_: [UInt8]) throws(Refused) -> [UInt8] in throw Refused() }
        #expect(
            prefixInconsistencies(input, decode: rejectsAll, encode: { $0 }) == [
                "the whole valid input of 3 bytes is rejected: Refused()"
            ])
        // Misreads: the 1-byte prefix decodes to a value whose encoding decodes to another.
        let counts = { (b: [UInt8]) throws(Refused) -> Int in
            guard !b.isEmpty else { throw Refused() }
            return b.count
        }
        #expect(
            prefixInconsistencies(input, decode: counts, encode: { [UInt8](repeating: 0, count: $0 == 1 ? 2 : $0) })
                == [
                    "prefix of 1 bytes re-encodes to something else"
                ])
    }
}

/// Hex literal helper for byte scripts: "0A 03 00" → [0x0A, 0x03, 0x00].
func hex(_ text: String) -> [UInt8] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { UInt8($0, radix: 16)! }
}

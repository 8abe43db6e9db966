import JSON
import Foundation
import RecoveryCore
import Testing

@testable import Store

/// The streaming JSON reader: the same values as `JSONValue.parse` whatever the chunk size (chunk boundaries
/// fall inside strings, escapes, surrogate pairs, numbers and literals), and one sentence for each refusal.
struct JSONStreamTests {
    static let document = #"""
        {"a": [1, -20, 3.5e-2, 1E+3, 0, -0.25, 9223372036854775807, 12345678901234567890],
         "s": "plain \"quoted\" \\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 end", "t": true, "f": false, "n": null,
         "o": {"nested": {"deeper": [[], {}, [{"x": "ü"}]]}}, "e": ""}
        """#

    static func read(_ text: String, chunkSize: Int) throws(JSONStreamError) -> JSONValue {
        var stream = JSONStream(bytes: Array(text.utf8), chunkSize: chunkSize)
        let value = try stream.value(limit: 1 << 20)
        try stream.finish()
        return value
    }

    @Test("every chunk size from 1 to 40 bytes reads the same value as the whole-text parser")
    func chunkBoundaries() throws {
        let whole = try JSONValue.parse(Self.document)
        for size in 1...40 {
            #expect(try Self.read(Self.document, chunkSize: size) == whole, "chunk size \(size)")
        }
        #expect(whole["s"]?.stringValue == "plain \"quoted\" \\ / \u{08}\u{0c}\n\r\t é 😀 end")
    }

    @Test("the box's parser agrees with Foundation's JSONSerialization on the document's strings and numbers")
    func agreesWithFoundation() throws {
        let ours = try JSONValue.parse(Self.document)
        let theirs = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.document.utf8)) as? [String: Any])
        #expect(ours["s"]?.stringValue == theirs["s"] as? String)
        let numbers = try #require(theirs["a"] as? [NSNumber]).map(\.doubleValue)
        let mine = (ours["a"]?.arrayValue ?? []).map { (v: JSONValue) -> Double in
            switch v {
            case .integer(let i): Double(i)
            case .number(let d): d
            default: .nan
            }
        }
        #expect(mine == numbers)
        let nested = (theirs["o"] as? [String: Any])?["nested"] as? [String: Any]
        let deepest = ((nested?["deeper"] as? [Any])?[2] as? [[String: Any]])?.first?["x"] as? String
        #expect(ours["o"]?["nested"]?["deeper"]?.arrayValue?[2].arrayValue?.first?["x"]?.stringValue == deepest)
    }

    @Test("walking members and elements one at a time, and skipping others, with 1-byte chunks")
    func walking() throws {
        var stream = JSONStream(bytes: Array(Self.document.utf8), chunkSize: 1)
        try stream.beginObject()
        var seen: [String] = []
        var items: [JSONValue] = []
        while let key = try stream.nextMember() {
            seen.append(key)
            if key == "a" {
                try stream.beginArray()
                while try stream.nextElement() { items.append(try stream.value(limit: 64)) }
            } else {
                try stream.skipValue()
            }
        }
        try stream.finish()
        #expect(seen == ["a", "s", "t", "f", "n", "o", "e"])
        #expect(items.count == 8 && items[0] == .integer(1) && items[2] == .number(0.035))
        #expect(items[7] == .number(12_345_678_901_234_567_168), "past Int64: the nearest Double")
    }

    @Test("malformed and truncated texts are refused with one sentence naming the byte, in any chunk size")
    func refusals() {
        let cases: [(String, String)] = [
            (#"{"a": [1, 2"#, "unterminated array"),
            (#"{"a": "open"#, "unterminated string"),
            (#"{"a": "\u12"#, "expected four hex digits"),
            (#"{"a": "\ud800x"}"#, "expected \\u"),
            (#"{"a": 01}"#, "leading zero"),
            (#"{"a": 1.}"#, "expected digits after ."),
            (#"{"a": -0.5e+000080000003}"#, "number out of range"),
            ("[1" + String(repeating: "0", count: 400) + "]", "number out of range"),
            (#"{"a": tru}"#, "expected true"),
            (#"{"a" 1}"#, "expected :"),
            (#"{"a": 1 "b": 2}"#, "expected , or }"),
            (#"[1] x"#, "unexpected text after the value"),
            ("\"a\u{01}\"", "control character in a string"),
            ("", "unexpected end"),
        ]
        for (text, reason) in cases {
            for size in [1, 3, 64] {
                #expect(throws: JSONStreamError.self, "\(text)") { _ = try Self.read(text, chunkSize: size) }
                do { _ = try Self.read(text, chunkSize: size) } catch {
                    #expect(error.reason == reason, "\(text) with \(size)-byte chunks: \(error)")
                    #expect(error.description.hasPrefix("The JSON is malformed at byte "), "\(error)")
                }
            }
        }
    }

    @Test("text that is not UTF-8 inside a string is refused")
    func notUTF8() {
        var stream = JSONStream(bytes: [0x22, 0xFF, 0xFE, 0x22], chunkSize: 1)
        #expect(throws: JSONStreamError(offset: 4, reason: "text that is not UTF-8")) {
            _ = try stream.value(limit: 100)
        }
    }

    @Test("nesting deeper than 64 is refused, both when taken and when skipped; 64 levels are read")
    func depth() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { _ = try Self.read(ok, chunkSize: 7) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try Self.read(deep, chunkSize: 4096)
            Issue.record("100,000 levels were read")
        } catch { #expect(error.reason == "nesting deeper than 64") }
        var stream = JSONStream(bytes: Array(("[1, " + deep + "]").utf8), chunkSize: 4096)
        try stream.beginArray()
        #expect(try stream.nextElement())
        try stream.skipValue()
        #expect(try stream.nextElement())
        #expect(throws: JSONStreamError(offset: 68, reason: "nesting deeper than 64")) { try stream.skipValue() }
    }

    @Test("a value longer than its limit is refused as too large, one byte over; a skipped one has no limit")
    func limit() throws {
        let text = "[\"" + String(repeating: "x", count: 98) + "\"]"  // 102 bytes
        var stream = JSONStream(bytes: Array(text.utf8), chunkSize: 5)
        #expect(try stream.value(limit: 102) == .array([.string(String(repeating: "x", count: 98))]))
        stream = JSONStream(bytes: Array(text.utf8), chunkSize: 5)
        do {
            _ = try stream.value(limit: 100)
            Issue.record("a 102-byte value was taken under a 100-byte limit")
        } catch {
            #expect(error.kind == .tooLarge(limit: 100))
            #expect(error.description == "a value larger than 100 bytes")
        }
        stream = JSONStream(bytes: Array(("{\"a\": " + String(repeating: "9", count: 1 << 20) + "}").utf8))
        try stream.beginObject()
        #expect(try stream.nextMember() == "a")
        try stream.skipValue()
        #expect(try stream.nextMember() == nil)
    }
}

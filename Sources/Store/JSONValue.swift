/// A JSON document (RFC 8259) with object keys kept in the order written, so exports and `--json`
/// output are stable and diffable. Writing and reading need no Foundation.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.integer(let x), .number(let y)), (.number(let y), .integer(let x)): Double(x) == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let v): hasher.combine(v)
        case .integer(let v): hasher.combine(Double(v))
        case .number(let v): hasher.combine(v)
        case .string(let v): hasher.combine(v)
        case .array(let v): hasher.combine(v)
        case .object(let v):
            for (key, value) in v {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    // MARK: Convenience

    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    public init(_ value: Double?) { self = value.map { .number($0) } ?? .null }
    public init(_ value: String?) { self = value.map { .string($0) } ?? .null }

    /// The member named `key` of an object; nil when absent or not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var isNull: Bool { self == .null }
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var doubleValue: Double? {
        switch self {
        case .number(let d): d
        case .integer(let i): Double(i)
        default: nil
        }
    }
    public var int64Value: Int64? {
        switch self {
        case .integer(let i): i
        case .number(let d): d.rounded() == d && abs(d) < 9.2e18 ? Int64(d) : nil
        default: nil
        }
    }

    // MARK: Writing

    /// The document as text: compact, or pretty with two-space indentation. Non-finite numbers,
    /// which JSON cannot hold, are written as null.
    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, depth: 0)
        return out
    }

    private func write(to out: inout String, pretty: Bool, depth: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .number(let d):
            if !d.isFinite {
                out += "null"
            } else if d == d.rounded(), abs(d) < 1e15 {
                out += String(Int64(d))  // "72" rather than "72.0"; reads back equal
            } else {
                out += String(d)  // Swift's shortest representation that reads back exactly
            }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { JSONValue.newline(&out, depth + 1) }
                item.write(to: &out, pretty: pretty, depth: depth + 1)
            }
            if pretty { JSONValue.newline(&out, depth) }
            out += "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                if pretty { JSONValue.newline(&out, depth + 1) }
                JSONValue.writeString(key, to: &out)
                out += pretty ? ": " : ":"
                value.write(to: &out, pretty: pretty, depth: depth + 1)
            }
            if pretty { JSONValue.newline(&out, depth) }
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ depth: Int) {
        out += "\n" + String(repeating: "  ", count: depth)
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    // MARK: Reading

    /// A syntax error in a JSON text, with the byte offset where reading stopped.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "The JSON is malformed at byte \(offset): \(reason)." }
    }

    /// Parses a complete JSON text (surrounding whitespace allowed, nothing else after the value).
    public static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: Array(text.utf8))
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the value") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        func error(_ reason: String) -> SyntaxError { SyntaxError(offset: index, reason: reason) }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws(SyntaxError) {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw error("expected \(literal)") }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < 64 else { throw error("nesting deeper than 64") }
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONValue] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                while true {
                    skipWhitespace()
                    items.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unterminated array") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                    } else if bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        return .array(items)
                    } else {
                        throw error("expected , or ]")
                    }
                }
            case UInt8(ascii: "{"):
                index += 1
                var members: [(String, JSONValue)] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    let key = try string()
                    skipWhitespace()
                    try expect(":")
                    skipWhitespace()
                    members.append((key, try value(depth: depth + 1)))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unterminated object") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                    } else if bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        return .object(members)
                    } else {
                        throw error("expected , or }")
                    }
                }
            default: return try number()
            }
        }

        mutating func number() throws(SyntaxError) -> JSONValue {
            let start = index
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits(_ r: inout Reader) -> Int {
                let s = r.index
                while r.index < r.bytes.count, (48...57).contains(r.bytes[r.index]) { r.index += 1 }
                return r.index - s
            }
            let intDigits = digits(&self)
            guard intDigits > 0 else { throw error("expected a value") }
            if intDigits > 1, bytes[index - intDigits] == UInt8(ascii: "0") { throw error("leading zero") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard digits(&self) > 0 else { throw error("expected digits after .") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits(&self) > 0 else { throw error("expected exponent digits") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isInteger, let i = Int64(text) { return .integer(i) }
            guard let d = Double(text) else { throw error("unreadable number") }
            return .number(d)
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1  // opening quote
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ r: Reader, _ scalars: inout String.UnicodeScalarView) {
                scalars.append(contentsOf: String(decoding: r.bytes[run..<r.index], as: UTF8.self).unicodeScalars)
            }
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(self, &scalars)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw error("control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                flush(self, &scalars)
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0c}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                default: throw error("unknown escape")
                }
                run = index
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            let isHex = { (b: UInt8) in (48...57).contains(b) || (65...70).contains(b) || (97...102).contains(b) }
            guard index + 4 <= bytes.count, bytes[index..<index + 4].allSatisfy(isHex),
                let v = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw error("expected four hex digits") }
            index += 4
            return v
        }
    }
}

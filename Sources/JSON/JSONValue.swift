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

    /// Parses a complete JSON text (surrounding whitespace allowed, nothing else after the value), with the
    /// streaming reader's rules (`JSONStream`): one parser for the whole box.
    public static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        let bytes = Array(text.utf8)
        var stream = JSONStream(bytes: bytes, chunkSize: max(1, bytes.count))
        do {
            let value = try stream.value(limit: Int.max)
            try stream.finish()
            return value
        } catch {
            throw SyntaxError(offset: error.offset, reason: error.reason)
        }
    }
}

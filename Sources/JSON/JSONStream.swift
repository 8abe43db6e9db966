/// Why a streamed JSON text could not be read: malformed or too large at a byte offset, or the source failed.
public struct JSONStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case malformed
        /// A value taken with `value(limit:)` runs past its limit.
        case tooLarge(limit: Int)
        /// The source failed; `reason` is its sentence.
        case unreadable
    }

    public let kind: Kind
    /// The byte offset where reading stopped.
    public let offset: Int
    public let reason: String

    public init(_ kind: Kind = .malformed, offset: Int, reason: String) {
        self.kind = kind
        self.offset = offset
        self.reason = reason
    }

    /// The error a source throws when it cannot read: `reason` is the whole sentence.
    public static func unreadable(_ reason: String) -> JSONStreamError {
        JSONStreamError(.unreadable, offset: 0, reason: reason)
    }

    public var description: String {
        switch kind {
        case .malformed: "The JSON is malformed at byte \(offset): \(reason)."
        case .tooLarge, .unreadable: reason
        }
    }
}

/// A pull reader of one JSON text (RFC 8259) that arrives in chunks: the caller walks the containers it cares
/// about (`beginObject`, `nextMember`, `beginArray`, `nextElement`) and takes each value inside as a small
/// `JSONValue` (`value(limit:)`) or passes over it (`skipValue`), so memory follows the largest value taken,
/// not the text. Nesting is bounded (`maximumDepth`), and so is every value taken (`limit`, in bytes of text).
///
/// Pure: the bytes come from `source`, which returns the next chunk, or nil at the end.
public struct JSONStream {
    public typealias Source = () throws(JSONStreamError) -> [UInt8]?

    /// Deeper nesting than this is refused (as `JSONValue.parse` does): a restore document nests 5 deep.
    public static let maximumDepth = 64

    private let source: Source
    private var chunk: [UInt8] = []
    private var index = 0
    /// Bytes of the text before `chunk`.
    private var consumed = 0
    private var ended = false
    /// Whether the container just begun has yet to give its first member or element.
    private var first = false
    /// The byte offset past which the value being taken is too large.
    private var budgetEnd = Int.max
    private var budgetLimit = 0

    public init(source: @escaping Source) { self.source = source }

    /// A stream over bytes already in memory, `chunkSize` at a time (tests take it down to 1 byte).
    public init(bytes: [UInt8], chunkSize: Int = 65_536) {
        precondition(chunkSize > 0, "a chunk size of zero")
        var start = 0
        self.init(source: { () throws(JSONStreamError) -> [UInt8]? in
            guard start < bytes.count else { return nil }
            let end = min(start + chunkSize, bytes.count)
            defer { start = end }
            return Array(bytes[start..<end])
        })
    }

    /// The offset of the next byte in the whole text.
    public var offset: Int { consumed + index }

    public func error(_ reason: String) -> JSONStreamError { JSONStreamError(offset: offset, reason: reason) }


    // MARK: Walking containers

    /// Enters the object that comes next.
    public mutating func beginObject() throws(JSONStreamError) {
        try skipWhitespace()
        guard try peek() == UInt8(ascii: "{") else { throw error("expected an object") }
        index += 1
        first = true
    }

    /// The next member's key (the reader then stands before its value), or nil after the object's `}`.
    public mutating func nextMember() throws(JSONStreamError) -> String? {
        try skipWhitespace()
        if try !separator(closing: UInt8(ascii: "}")) { return nil }
        try skipWhitespace()
        guard try peek() == UInt8(ascii: "\"") else { throw error("expected a key") }
        let key = try string(limit: 1 << 16)
        try skipWhitespace()
        guard try peek() == UInt8(ascii: ":") else { throw error("expected :") }
        index += 1
        return key
    }

    /// Enters the array that comes next.
    public mutating func beginArray() throws(JSONStreamError) {
        try skipWhitespace()
        guard try peek() == UInt8(ascii: "[") else { throw error("expected a list") }
        index += 1
        first = true
    }

    /// True when another element follows (the reader stands before it); false after the array's `]`.
    public mutating func nextElement() throws(JSONStreamError) -> Bool {
        try skipWhitespace()
        return try separator(closing: UInt8(ascii: "]"))
    }

    /// What the next value opens with: `{`, `[`, `"`, or the first byte of a literal or number; nil at the end.
    public mutating func peekValue() throws(JSONStreamError) -> UInt8? {
        try skipWhitespace()
        return try peek()
    }

    /// After the top-level value: only whitespace may follow.
    public mutating func finish() throws(JSONStreamError) {
        try skipWhitespace()
        guard try peek() == nil else { throw error("unexpected text after the value") }
    }

    /// Past the `,` before the next member or element (true), or past the closing byte (false).
    private mutating func separator(closing: UInt8) throws(JSONStreamError) -> Bool {
        guard let byte = try peek() else {
            throw error(closing == UInt8(ascii: "]") ? "unterminated array" : "unterminated object")
        }
        if first {
            first = false
            if byte == closing {
                index += 1
                return false
            }
            return true
        }
        if byte == closing {
            index += 1
            return false
        }
        guard byte == UInt8(ascii: ",") else {
            throw error(closing == UInt8(ascii: "]") ? "expected , or ]" : "expected , or }")
        }
        index += 1
        return true
    }

    // MARK: Taking values

    /// The next value whole, refused when its text is longer than `limit` bytes or nests too deep.
    public mutating func value(limit: Int) throws(JSONStreamError) -> JSONValue {
        try skipWhitespace()
        budgetLimit = limit
        // The byte after the value is looked at to see that it ended: it does not count.
        budgetEnd = offset >= Int.max - limit ? Int.max : offset + limit + 1
        defer { budgetEnd = Int.max }
        return try value(depth: 0)
    }

    /// Reads past the next value, checking its syntax and keeping none of it.
    public mutating func skipValue() throws(JSONStreamError) {
        try skipWhitespace()
        // An explicit count of open containers, not recursion: a skipped value may nest as deep as the limit.
        var open: [UInt8] = []
        var expectValue = true
        while true {
            try skipWhitespace()
            guard let byte = try peek() else { throw error("unexpected end") }
            if expectValue {
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard open.count < JSONStream.maximumDepth else {
                        throw error("nesting deeper than \(JSONStream.maximumDepth)")
                    }
                    index += 1
                    open.append(byte)
                    try skipWhitespace()
                    let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if try peek() == closing {
                        index += 1
                        open.removeLast()
                        expectValue = false
                    } else if byte == UInt8(ascii: "{") {
                        try skipKey()
                    }
                    if open.isEmpty { return }
                    continue
                case UInt8(ascii: "\""): try skipString()
                case UInt8(ascii: "t"): try expect("true")
                case UInt8(ascii: "f"): try expect("false")
                case UInt8(ascii: "n"): try expect("null")
                default: try skipNumber()
                }
                if open.isEmpty { return }
                expectValue = false
                continue
            }
            let inObject = open.last == UInt8(ascii: "{")
            let closing = inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            if byte == UInt8(ascii: ",") {
                index += 1
                if inObject { try skipKey() }
                expectValue = true
            } else if byte == closing {
                index += 1
                open.removeLast()
                if open.isEmpty { return }
            } else {
                throw error(inObject ? "expected , or }" : "expected , or ]")
            }
        }
    }

    private mutating func skipKey() throws(JSONStreamError) {
        try skipWhitespace()
        guard try peek() == UInt8(ascii: "\"") else { throw error("expected a key") }
        try skipString()
        try skipWhitespace()
        guard try peek() == UInt8(ascii: ":") else { throw error("expected :") }
        index += 1
    }

    private mutating func value(depth: Int) throws(JSONStreamError) -> JSONValue {
        guard depth < JSONStream.maximumDepth else { throw error("nesting deeper than \(JSONStream.maximumDepth)") }
        guard let byte = try peek() else { throw error("unexpected end") }
        switch byte {
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "\""): return .string(try string(limit: Int.max))
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONValue] = []
            try skipWhitespace()
            if try peek() == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                try skipWhitespace()
                items.append(try value(depth: depth + 1))
                try skipWhitespace()
                guard let next = try peek() else { throw error("unterminated array") }
                index += 1
                if next == UInt8(ascii: "]") { return .array(items) }
                guard next == UInt8(ascii: ",") else {
                    index -= 1
                    throw error("expected , or ]")
                }
            }
        case UInt8(ascii: "{"):
            index += 1
            var members: [(String, JSONValue)] = []
            // I-JSON (RFC 7493 §2.3): a name given twice would leave readers to pick one copy each their own way.
            var names: Set<String> = []
            try skipWhitespace()
            if try peek() == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                try skipWhitespace()
                guard try peek() == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string(limit: Int.max)
                guard names.insert(key).inserted else { throw error("the key \"\(key.prefix(40))\" appears twice in one object") }
                try skipWhitespace()
                guard try peek() == UInt8(ascii: ":") else { throw error("expected :") }
                index += 1
                try skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                try skipWhitespace()
                guard let next = try peek() else { throw error("unterminated object") }
                index += 1
                if next == UInt8(ascii: "}") { return .object(members) }
                guard next == UInt8(ascii: ",") else {
                    index -= 1
                    throw error("expected , or }")
                }
            }
        default: return try number()
        }
    }

    // MARK: Tokens

    private mutating func number() throws(JSONStreamError) -> JSONValue {
        var text: [UInt8] = []
        var isInteger = true
        if try peek() == UInt8(ascii: "-") {
            text.append(UInt8(ascii: "-"))
            index += 1
        }
        let intDigits = try digits(into: &text)
        guard intDigits > 0 else { throw error("expected a value") }
        if intDigits > 1, text[text.count - intDigits] == UInt8(ascii: "0") { throw error("leading zero") }
        if try peek() == UInt8(ascii: ".") {
            isInteger = false
            text.append(UInt8(ascii: "."))
            index += 1
            guard try digits(into: &text) > 0 else { throw error("expected digits after .") }
        }
        if let e = try peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            isInteger = false
            text.append(e)
            index += 1
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                text.append(sign)
                index += 1
            }
            guard try digits(into: &text) > 0 else { throw error("expected exponent digits") }
        }
        let string = String(decoding: text, as: UTF8.self)
        if isInteger, let i = Int64(string) { return .integer(i) }
        guard let d = Double(string) else { throw error("unreadable number") }
        // Past Double's range (1e400, or an exponent of many digits) a number would read as infinity, which
        // JSON cannot hold and no field of a document may be: it is refused, not rounded to infinity.
        guard d.isFinite else { throw error("number out of range") }
        return .number(d)
    }

    private mutating func digits(into text: inout [UInt8]) throws(JSONStreamError) -> Int {
        var count = 0
        while let byte = try peek(), (48...57).contains(byte) {
            text.append(byte)
            index += 1
            count += 1
        }
        return count
    }

    /// The same grammar as `number`, keeping nothing: a skipped number may be any length.
    private mutating func skipNumber() throws(JSONStreamError) {
        if try peek() == UInt8(ascii: "-") { index += 1 }
        var first: UInt8?
        var count = 0
        while let byte = try peek(), (48...57).contains(byte) {
            if first == nil { first = byte }
            index += 1
            count += 1
        }
        guard count > 0 else { throw error("expected a value") }
        if count > 1, first == UInt8(ascii: "0") { throw error("leading zero") }
        if try peek() == UInt8(ascii: ".") {
            index += 1
            guard try skipDigits() > 0 else { throw error("expected digits after .") }
        }
        if let e = try peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            index += 1
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard try skipDigits() > 0 else { throw error("expected exponent digits") }
        }
    }

    private mutating func skipDigits() throws(JSONStreamError) -> Int {
        var count = 0
        while let byte = try peek(), (48...57).contains(byte) {
            index += 1
            count += 1
        }
        return count
    }

    /// A string token, its text at most `limit` bytes; invalid UTF-8 is refused.
    private mutating func string(limit: Int) throws(JSONStreamError) -> String {
        var bytes: [UInt8] = []
        let tooLong = error("a key longer than \(limit) bytes")
        try scanString { (byte) throws(JSONStreamError) in
            guard bytes.count < limit else { throw tooLong }
            bytes.append(byte)
        } scalar: { (scalar) throws(JSONStreamError) in
            bytes.append(contentsOf: String(scalar).utf8)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw error("text that is not UTF-8") }
        return text
    }

    private mutating func skipString() throws(JSONStreamError) {
        try scanString { (_) throws(JSONStreamError) in } scalar: { (_) throws(JSONStreamError) in }
    }

    /// Walks a string token from its opening quote past its closing one, handing on raw bytes and escaped scalars.
    private mutating func scanString(
        byte take: (UInt8) throws(JSONStreamError) -> Void, scalar: (Unicode.Scalar) throws(JSONStreamError) -> Void
    ) throws(JSONStreamError) {
        index += 1  // opening quote
        while true {
            guard let byte = try peek() else { throw error("unterminated string") }
            index += 1
            if byte == UInt8(ascii: "\"") { return }
            if byte < 0x20 {
                index -= 1
                throw error("control character in a string")
            }
            if byte != UInt8(ascii: "\\") {
                try take(byte)
                continue
            }
            guard let escape = try peek() else { throw error("unterminated escape") }
            index += 1
            switch escape {
            case UInt8(ascii: "\""): try scalar("\"")
            case UInt8(ascii: "\\"): try scalar("\\")
            case UInt8(ascii: "/"): try scalar("/")
            case UInt8(ascii: "b"): try scalar("\u{08}")
            case UInt8(ascii: "f"): try scalar("\u{0c}")
            case UInt8(ascii: "n"): try scalar("\n")
            case UInt8(ascii: "r"): try scalar("\r")
            case UInt8(ascii: "t"): try scalar("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    try expect("\\u")
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let s = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                try scalar(s)
            default: throw error("unknown escape")
            }
        }
    }

    private mutating func hex4() throws(JSONStreamError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try peek() else { throw error("expected four hex digits") }
            let digit: UInt32
            switch byte {
            case 48...57: digit = UInt32(byte - 48)
            case 65...70: digit = UInt32(byte - 55)
            case 97...102: digit = UInt32(byte - 87)
            default: throw error("expected four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func expect(_ literal: StaticString) throws(JSONStreamError) {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in bytes {
            guard try peek() == byte else { throw error("expected \(literal)") }
            index += 1
        }
    }

    private mutating func skipWhitespace() throws(JSONStreamError) {
        while let byte = try peek(), byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 { index += 1 }
    }

    // MARK: Bytes

    /// The next byte without taking it; nil at the end of the text. Refills from the source, and refuses a
    /// value taken with `value(limit:)` that runs past its limit.
    private mutating func peek() throws(JSONStreamError) -> UInt8? {
        if index < chunk.count {
            guard consumed + index < budgetEnd else { throw tooLarge() }
            return chunk[index]
        }
        return try refill()
    }

    private mutating func refill() throws(JSONStreamError) -> UInt8? {
        while index >= chunk.count {
            if ended { return nil }
            consumed += chunk.count
            index = 0
            guard let next = try source() else {
                ended = true
                chunk = []
                return nil
            }
            chunk = next
        }
        guard consumed + index < budgetEnd else { throw tooLarge() }
        return chunk[index]
    }

    private func tooLarge() -> JSONStreamError {
        JSONStreamError(
            .tooLarge(limit: budgetLimit), offset: offset, reason: "a value larger than \(JSONStream.size(budgetLimit))")
    }

    /// "4 MiB", "64 KiB" or "100 bytes".
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

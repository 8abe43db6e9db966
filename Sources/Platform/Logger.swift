#if canImport(Glibc)
    import Glibc
#endif

/// A logger value handed to whoever logs (after swift-log: never a global a library creates). Lines
/// are `<priority>message key=value …` with dotted keys (`ble.address=…`) for journald on stderr.
public struct Logger: Sendable {
    public var minimumLevel: LogLevel
    public var sink: LogSink
    /// Metadata carried into every line, in order.
    public private(set) var metadata: [(key: String, value: String)]

    public init(minimumLevel: LogLevel = .info, sink: LogSink = .standardError) {
        self.minimumLevel = minimumLevel
        self.sink = sink
        self.metadata = []
    }

    /// A copy that adds `key=value` to every line (replacing an earlier value for the same key).
    public func with(_ key: String, _ value: String) -> Logger {
        var copy = self
        copy.metadata.removeAll { $0.key == key }
        copy.metadata.append((key, value))
        return copy
    }

    public func log(_ level: LogLevel, _ message: String, _ extra: KeyValuePairs<String, String> = [:]) {
        guard level <= minimumLevel else { return }
        sink.write(Logger.format(level, message, metadata + extra.map { ($0.key, $0.value) }))
    }

    public func error(_ message: String, _ extra: KeyValuePairs<String, String> = [:]) { log(.error, message, extra) }
    public func warning(_ message: String, _ extra: KeyValuePairs<String, String> = [:]) {
        log(.warning, message, extra)
    }
    public func notice(_ message: String, _ extra: KeyValuePairs<String, String> = [:]) { log(.notice, message, extra) }
    public func info(_ message: String, _ extra: KeyValuePairs<String, String> = [:]) { log(.info, message, extra) }
    public func debug(_ message: String, _ extra: KeyValuePairs<String, String> = [:]) { log(.debug, message, extra) }

    /// One journald line. Newlines would split an entry, so they are written as `\n`; values with spaces,
    /// quotes, `=` or nothing at all are quoted.
    public static func format(_ level: LogLevel, _ message: String, _ fields: [(key: String, value: String)])
        -> String
    {
        var line = "<\(level.rawValue)>" + escaped(message)
        for (key, value) in fields {
            line += " " + key + "=" + quotedIfNeeded(value)
        }
        return line
    }

    static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" }) else { return text }
        return text.replacingNewlines()
    }

    static func quotedIfNeeded(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\t" }
        let plain = escaped(value)
        guard needsQuotes else { return plain }
        var out = "\""
        for c in plain {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        var out = ""
        for c in self {
            switch c {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            default: out.append(c)
            }
        }
        return out
    }
}

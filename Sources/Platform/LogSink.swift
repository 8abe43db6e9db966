#if canImport(Glibc)
    import Glibc
#endif

/// Where finished log lines go.
public struct LogSink: Sendable {
    public let write: @Sendable (String) -> Void

    public init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

    /// Standard error, one `write` per line so concurrent writers do not interleave within a line.
    public static let standardError = LogSink { line in
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

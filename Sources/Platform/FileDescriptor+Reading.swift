#if canImport(Glibc)
    import Glibc
#endif

/// Why a whole-file read failed, as one sentence a person can act on.
public struct FileReadError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// `open` or `read` failed with this error.
        case system(Errno)
        /// The file holds more than `limit` bytes; nothing is returned.
        case tooLarge(limit: Int)
    }

    /// The path as the caller named it ("standard input" for descriptor 0).
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .system(let e): "cannot read \(path): \(e.message)."
        case .tooLarge(let limit): "\(path) is larger than \(Self.size(limit))."
        }
    }

    /// "32 MiB", "4 KiB" or "100 bytes": the largest binary unit the limit is a whole number of.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}

extension FileDescriptor {
    /// Descriptor 0.
    public static let standardInput = FileDescriptor(rawValue: 0)

    /// Every byte until end of file, reading in chunks and retrying `EINTR`. The size `stat` reports is
    /// not trusted: /proc and sysfs files and pipes report 0 and still have content. More than `limit`
    /// bytes is refused whole, so a runaway file never fills memory. `name` goes into the error.
    public func readToEnd(limit: Int, name: String) throws(FileReadError) -> [UInt8] {
        precondition(limit >= 0, "a negative read limit")
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: Swift.min(65_536, limit + 1))
        while true {
            let result = chunk.withUnsafeMutableBytes { b in Result { () throws(Errno) -> Int in try read(into: b) } }
            let n: Int
            do { n = try result.get() } catch { throw FileReadError(path: name, reason: .system(error)) }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { throw FileReadError(path: name, reason: .tooLarge(limit: limit)) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// The whole of the file at `path`, at most `limit` bytes (see `readToEnd`); opened and closed here.
    public static func readContents(atPath path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        let fd: FileDescriptor
        do { fd = try open(path, .readOnly) } catch { throw FileReadError(path: path, reason: .system(error)) }
        defer { fd.close() }
        return try fd.readToEnd(limit: limit, name: path)
    }
}

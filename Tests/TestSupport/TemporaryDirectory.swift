import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under the temporary folder, removed with its contents when the test is done.
public final class TemporaryDirectory {
    public let path: String

    public init(_ prefix: String = "recoverydeck-tests") {
        var template = Array((NSTemporaryDirectory() + "\(prefix)-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: \(String(cString: strerror(errno)))")
        path = String(cString: made!)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// A database file in the directory.
    public var databasePath: String { path + "/recoverydeck.db" }

    /// Writes `text` to `relative`, creating folders on the way.
    public func write(_ relative: String, _ text: String) {
        let full = path + "/" + relative
        var prefix = ""
        for part in full.split(separator: "/").dropLast() {
            prefix += "/" + part
            mkdir(prefix, 0o700)
        }
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot write \(full)")
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}

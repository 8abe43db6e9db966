#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under /tmp, removed with its contents when the test is done.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/bluez-tests-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(cString: made!)
    }

    deinit { _ = system("rm -rf '\(path)'") }

    /// Writes `text` to `relative`, creating folders on the way.
    func write(_ relative: String, _ text: String) {
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

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's libc file helpers, kept in one place: the configuration file and the panel script are
/// read here, and the database's directory is made here.
extension Daemon {
    static func makeParentDirectory(of path: String) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        if access(directory, F_OK) != 0 { _ = mkdir(directory, 0o750) }
    }

    static func readFile(_ path: String) throws(DaemonError) -> String {
        guard let file = fopen(path, "r") else {
            throw .configuration("cannot read \(path): \(String(cString: strerror(errno))).")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

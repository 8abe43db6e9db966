import Platform

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

    /// A configuration file or panel script is a few KiB; 1 MiB is far beyond any real one.
    static let maximumFileBytes = 1 << 20

    static func readFile(_ path: String) throws(DaemonError) -> String {
        do {
            return String(
                decoding: try FileDescriptor.readContents(atPath: path, limit: maximumFileBytes), as: UTF8.self)
        } catch {
            throw .configuration(error.description)
        }
    }
}

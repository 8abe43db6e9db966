import Platform

#if canImport(Glibc)
    import Glibc
#endif

extension DaemonConfiguration {
    /// The largest configuration, simulation file or panel script read (1 MiB): far beyond any real file.
    public static let maximumFileBytes = 1 << 20

    /// Reads and parses the file at `path`; a missing file means every default unless `required`. Read by the
    /// daemon, `recoverydeck doctor` and the CLI alike.
    public static func load(path: String, required: Bool) throws(Problem) -> DaemonConfiguration {
        guard access(path, F_OK) == 0 || required else { return DaemonConfiguration() }
        return try parse(try readText(path), path: path)
    }

    /// The text of the file at `path`, or the problem "cannot be read".
    package static func readText(_ path: String) throws(Problem) -> String {
        do { return try readFile(path) } catch {
            throw Problem(path: path, line: nil, reason: "cannot be read")
        }
    }

    /// A file's text, at most `maximumFileBytes`; the error is one sentence.
    package static func readFile(_ path: String) throws(ValueError) -> String {
        do {
            return String(
                decoding: try FileDescriptor.readContents(atPath: path, limit: maximumFileBytes), as: UTF8.self)
        } catch {
            throw ValueError(reason: error.description)
        }
    }
}

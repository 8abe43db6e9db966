import Platform

#if canImport(Glibc)
    import Glibc
#endif

extension DaemonConfiguration {
    /// The largest configuration or panel script read (1 MiB): far beyond any real file.
    public static let maximumFileBytes = 1 << 20

    /// Reads and parses the file at `path`, and the panel script it names; a missing file means every
    /// default unless `required`. Read by the daemon, `recoverydeck doctor` and the CLI alike.
    public static func load(path: String, required: Bool) throws(Problem) -> DaemonConfiguration {
        guard access(path, F_OK) == 0 || required else { return DaemonConfiguration() }
        let text: String
        do { text = try readFile(path) } catch {
            throw Problem(path: path, line: nil, reason: "cannot be read")
        }
        let (configuration, lines) = try parseNamingLines(text, path: path)
        do { _ = try configuration.loadPanelScript() } catch {
            throw Problem(path: path, line: error.key.flatMap { lines[$0] }, reason: error.reason)
        }
        return configuration
    }

    /// A file's text, at most `maximumFileBytes`; the error is one sentence.
    static func readFile(_ path: String) throws(ValueError) -> String {
        do {
            return String(
                decoding: try FileDescriptor.readContents(atPath: path, limit: maximumFileBytes), as: UTF8.self)
        } catch {
            throw ValueError(reason: error.description)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// The names in a directory, read once: every caller that lists a folder (the spool, the import, doctor, rfkill,
/// the GPIO chips) goes through here, so a failure reads the same everywhere and no caller forgets `closedir`.
public enum DirectoryEntries {
    /// The names in `path` except "." and "..", in the order the file system gives them (callers sort as they
    /// need). Throws the `Errno` of `opendir` (the folder is missing or unreadable) or of `readdir`. The
    /// corresponding C functions are `opendir`, `readdir` and `closedir`; glibc's `opendir` sets `O_CLOEXEC`.
    public static func names(in path: String) throws(Errno) -> [String] {
        guard let dir = opendir(path) else { throw Errno.current }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            // readdir returns nil at the end and on an error; only errno tells them apart.
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw Errno.current }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}

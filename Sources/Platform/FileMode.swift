import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Permission bits of files another program has open.
public enum FileMode {
    /// Takes the permission bits outside `keep` away from the regular file at `path` (never through a link),
    /// without an ordinary descriptor of it: closing one would release every POSIX lock this process holds
    /// on the file, SQLite's among them. A missing file or a link is left alone, as is a file that is not
    /// regular.
    /// The corresponding C function is `cplatform_narrow_mode`.
    public static func narrow(atPath path: String, keeping keep: mode_t) throws(Errno) {
        guard cplatform_narrow_mode(path, UInt32(keep)) != 0 else { return }
        let code = Errno.current
        guard code == .noEntry || code.rawValue == ELOOP else { throw code }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// The modes of the files that hold the person's data. They are the owner's alone (0600, folders 0700),
/// except in a folder shared with a group the way the installed box's /var/lib/recoverydeck is: owned by
/// the daemon's user, group `recoverydeck`, mode 2770. There the database, its -wal and -shm, and the
/// spool are group-readable and -writable (0660, folders 2770), so every member of the group opens the
/// one database the daemon uses, and the set-group-ID bit keeps what a member creates in that group.
enum SharedState {
    /// True when `directory` is set-group-ID and its group may read, write and enter it.
    /// The corresponding C function is `lstat` (a link is never taken for the folder it points to).
    static func isShared(_ directory: String) -> Bool {
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
        return info.st_mode & S_ISGID != 0 && info.st_mode & 0o070 == 0o070
    }

    /// The mode for a data file created in `directory`.
    static func fileMode(in directory: String) -> mode_t { isShared(directory) ? 0o660 : 0o600 }

    /// The mode for a data folder created in `directory`. The set-group-ID bit of a shared folder is
    /// inherited by `mkdir`; the daemon's unit (`RestrictSUIDSGID=yes`) refuses to set it by hand.
    static func directoryMode(in directory: String) -> mode_t { isShared(directory) ? 0o2770 : 0o700 }
}

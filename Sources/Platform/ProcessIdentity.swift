import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Who this process acts as, for the two rules every RecoveryDeck process keeps: it holds health data,
/// so it never leaves it in a core dump; and root never touches the service user's directory with
/// root's rights, so a link the service account planted there reaches only what that account could
/// reach itself.
public enum ProcessIdentity {
    /// Turns core dumps off (`RLIMIT_CORE` 0) and makes the process non-dumpable, which also keeps
    /// other processes of the same user from attaching with ptrace and reading its memory.
    /// The corresponding C calls are `setrlimit(RLIMIT_CORE)` and `prctl(PR_SET_DUMPABLE, 0)`.
    public static func refuseCoreDumps() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(Int32(RLIMIT_CORE.rawValue), &none)
        _ = cplatform_set_dumpable(0)
    }

    /// True when the process may not be dumped or traced (`PR_GET_DUMPABLE` is 0).
    public static var isDumpable: Bool { cplatform_get_dumpable() != 0 }

    /// The identity root took on with `actAs`, and the groups to give back for `asInvoker`.
    private struct Acting {
        let uid: uid_t
        let gid: gid_t
        let ownerGroups: [gid_t]
        let invokerGroups: [gid_t]
    }

    nonisolated(unsafe) private static var acting: Acting?

    /// The user and group root's file accesses now run as, or nil when it acts as itself.
    public static var actingAs: (uid: UInt32, gid: UInt32)? { acting.map { ($0.uid, $0.gid) } }

    /// Root acts as `uid`/`gid` from here on for every file access: the effective ids (the real and
    /// saved ones stay 0, so `asInvoker` can come back and the owner cannot signal or trace this
    /// process). Supplementary groups become the owner's own, as the group database lists them (the owner
    /// is a system user: root keeps that database), else `gid` alone. Does nothing unless root.
    /// The corresponding C functions are `getgrouplist`, `setgroups`, `setegid` and `seteuid`.
    public static func actAs(uid: UInt32, gid: UInt32) throws(Errno) {
        guard geteuid() == 0, acting == nil, uid != 0 else { return }
        let invokerGroups = currentGroups()
        let ownerGroups = groups(ofUser: uid, primary: gid)
        if !setGroups(ownerGroups) { throw Errno.current }
        if setegid(gid) != 0 {
            let error = Errno.current
            restoreGroups(invokerGroups)
            throw error
        }
        if seteuid(uid) != 0 {
            let error = Errno.current
            _ = setegid(0)
            restoreGroups(invokerGroups)
            throw error
        }
        acting = Acting(uid: uid, gid: gid, ownerGroups: ownerGroups, invokerGroups: invokerGroups)
    }

    /// Runs `body` with root's own rights when root acts as another user (for files the person named on
    /// the command line, and for the Bluetooth management socket, which needs root's capability), then
    /// acts as that user again. Without `actAs`, simply runs `body`.
    public static func asInvoker<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        guard let acting else { return try body() }
        _ = seteuid(0)
        _ = setegid(0)
        restoreGroups(acting.invokerGroups)
        defer {
            _ = setGroups(acting.ownerGroups)
            _ = setegid(acting.gid)
            _ = seteuid(acting.uid)
        }
        return try body()
    }

    /// The process's supplementary groups.
    /// The corresponding C function is `getgroups`.
    public static func currentGroups() -> [gid_t] {
        let count = getgroups(0, nil)
        guard count > 0 else { return [] }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let got = getgroups(count, &groups)
        return got > 0 ? Array(groups.prefix(Int(got))) : []
    }

    private static func restoreGroups(_ groups: [gid_t]) { _ = setGroups(groups) }

    private static func setGroups(_ groups: [gid_t]) -> Bool {
        var groups = groups
        return setgroups(groups.count, &groups) == 0
    }

    /// The groups of the user with `uid` per the user and group databases, `primary` first; `[primary]`
    /// for a user the databases do not know.
    static func groups(ofUser uid: uid_t, primary: gid_t) -> [gid_t] {
        // getpwuid_r fills `entry` with pointers into `buffer`, so the name is copied out while both are in place.
        // (Passing a Swift array as `&buffer` lends its storage for that one call only: reading `pw_name` after it
        // read freed memory, which on arm64 gave getgrouplist a wrong name and the primary group alone.)
        let name: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>? = nil
            guard let base = buffer.baseAddress, getpwuid_r(uid, &entry, base, buffer.count, &result) == 0,
                result != nil, let name = entry.pw_name
            else { return nil }
            return String(cString: name)
        }
        guard let name else { return [primary] }
        var count: CInt = 64
        while count <= 65_536 {
            var groups = [gid_t](repeating: 0, count: Int(count))
            let previous = count
            if getgrouplist(name, primary, &groups, &count) != -1 {
                return Array(groups.prefix(Int(count)))
            }
            if count <= previous { break }
        }
        return [primary]
    }
}

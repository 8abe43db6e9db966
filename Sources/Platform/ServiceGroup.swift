#if canImport(Glibc)
    import Glibc
#endif

/// A group named in the system's group database, and the rule a local socket uses to admit a peer:
/// root, or a process whose user belongs to the group (as primary group or listed member).
public struct ServiceGroup: Hashable, Sendable {
    public let name: String
    public let gid: UInt32

    public init(name: String, gid: UInt32) {
        self.name = name
        self.gid = gid
    }

    /// The group called `name`, or nil when there is none.
    /// The corresponding C function is `getgrnam_r`.
    public static func named(_ name: String) throws(Errno) -> ServiceGroup? {
        try lookUp({ getgrnam_r(name, $0, $1, $2, $3) }) { ServiceGroup(name: name, gid: $0.gr_gid) }
    }

    /// The name of the group with `gid`, or nil when the group database has none (or cannot be read).
    /// The corresponding C function is `getgrgid_r`.
    public static func name(of gid: UInt32) -> String? {
        try? lookUp({ getgrgid_r(gid, $0, $1, $2, $3) }) { String(cString: $0.gr_name) }
    }

    /// One reentrant group-database look-up, its buffer grown while the answer is ERANGE (getgrnam_r(3));
    /// what `read` takes from the entry while its strings are still in the buffer, nil when there is none.
    private static func lookUp<T>(
        _ call: (
            UnsafeMutablePointer<group>, UnsafeMutablePointer<CChar>, Int,
            UnsafeMutablePointer<UnsafeMutablePointer<group>?>
        ) -> CInt,
        _ read: (group) -> T
    ) throws(Errno) -> T? {
        var entry = group()
        var result: UnsafeMutablePointer<group>? = nil
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let rc = call(&entry, &buffer, buffer.count, &result)
            if rc == ERANGE && buffer.count < 1 << 20 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            if rc != 0 { throw Errno(rawValue: rc) }
            return result.map { read($0.pointee) }
        }
    }

    /// True for root, and for a peer whose process holds the group, as its primary group or among the
    /// supplementary groups the kernel reported for the connection (`SO_PEERGROUPS`). The user database
    /// is not consulted: what counts is what the peer's process actually holds.
    public func admits(_ peer: PeerCredentials) -> Bool {
        peer.uid == 0 || peer.gid == gid || peer.groups.contains(gid)
    }
}

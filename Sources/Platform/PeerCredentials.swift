import CPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Who is at the other end of a Unix connection, as the kernel recorded it at `connect` (SO_PEERCRED).
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// The peer's supplementary groups as its process held them when it connected (`SO_PEERGROUPS`):
    /// the kernel's word, not the user database's, so a group dropped with `setpriv` or `newgrp` is not
    /// counted and one added since the peer logged in is not either.
    public var groups: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

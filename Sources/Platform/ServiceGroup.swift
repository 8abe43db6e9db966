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
        var group = group()
        var result: UnsafeMutablePointer<group>? = nil
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let rc = getgrnam_r(name, &group, &buffer, buffer.count, &result)
            if rc == ERANGE && buffer.count < 1 << 20 {
                buffer = [CChar](repeating: 0, count: buffer.count * 4)
                continue
            }
            if rc != 0 { throw Errno(rawValue: rc) }
            guard let found = result else { return nil }
            return ServiceGroup(name: name, gid: found.pointee.gr_gid)
        }
    }

    /// True for root, for a peer whose process gid is the group, and for a peer whose user the group
    /// database lists in the group.
    /// The corresponding C functions are `getpwuid_r` and `getgrouplist`.
    public func admits(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 || peer.gid == gid { return true }
        return ServiceGroup.groups(ofUser: peer.uid).contains(gid)
    }

    /// Every group the user with `uid` belongs to per the databases (empty for an unknown uid).
    public static func groups(ofUser uid: UInt32) -> [UInt32] {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>? = nil
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, let user = result else { return [] }
        let primary = user.pointee.pw_gid
        var count: CInt = 32
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            let previous = count
            if getgrouplist(user.pointee.pw_name, primary, &groups, &count) != -1 {
                return Array(groups.prefix(Int(count)))
            }
            // -1 means too small; `count` now holds the size needed.
            if count <= previous { return [primary] }
        }
    }
}

import Testing

@testable import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// Root acting as the database folder's owner takes that user's groups (`ProcessIdentity.groups(ofUser:)`): they
/// must be the groups the user and group databases give, as `id -G` prints them, for every user this machine
/// knows (on the box, the service user's `gpio` and `bluetooth` groups are what let doctor open the chips).
struct ProcessIdentityGroupsTests {
    /// `id -G NAME`'s groups, or nil when it fails.
    func idGroups(_ name: String) -> Set<gid_t>? {
        guard let pipe = popen("id -G '\(name)' 2>/dev/null", "r") else { return nil }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard pclose(pipe) == 0 else { return nil }
        return Set(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { gid_t($0) })
    }

    @Test("every user's groups are those id -G gives, the primary group among them")
    func groupsAgreeWithId() throws {
        var users: [(name: String, uid: uid_t, gid: gid_t)] = []
        setpwent()
        while let entry = getpwent() {
            users.append((String(cString: entry.pointee.pw_name), entry.pointee.pw_uid, entry.pointee.pw_gid))
        }
        endpwent()
        #expect(users.contains { $0.uid == 0 }, "no root in the user database")
        for user in users where user.name.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) {
            guard let expected = idGroups(user.name) else { continue }  // a name id cannot look up twice
            let groups = ProcessIdentity.groups(ofUser: user.uid, primary: user.gid)
            #expect(groups.first == user.gid, "\(user.name)")
            #expect(Set(groups) == expected, "\(user.name): \(groups) against id -G \(expected.sorted())")
        }
    }
}

import Platform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("DirectoryEntries: one way to list a folder")
struct DirectoryEntriesTests {
    @Test("every name but . and .., hidden names, links and FIFOs included; a missing or unreadable folder throws its errno")
    func listing() throws {
        let dir = try TemporaryFolder()
        defer { dir.remove() }
        #expect(try DirectoryEntries.names(in: dir.path).isEmpty)
        try dir.write([1], to: "a.json")
        try dir.write([], to: ".a.json.tmp")
        #expect(mkfifo(dir.path + "/fifo", 0o600) == 0)
        #expect(symlink("/nonexistent", dir.path + "/link") == 0)
        let names = try DirectoryEntries.names(in: dir.path)
        #expect(names.sorted() == [".a.json.tmp", "a.json", "fifo", "link"])
        #expect(throws: Errno.noEntry) { try DirectoryEntries.names(in: dir.path + "/missing") }
        #expect(throws: Errno(rawValue: ENOTDIR)) { try DirectoryEntries.names(in: dir.path + "/a.json") }
        if geteuid() != 0 {
            // Root reads any folder; anyone else is refused a folder without read permission.
            #expect(mkdir(dir.path + "/closed", 0o000) == 0)
            defer { rmdir(dir.path + "/closed") }
            #expect(throws: Errno.accessDenied) { try DirectoryEntries.names(in: dir.path + "/closed") }
        }
    }
}

import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A write that was killed before its rename leaves `NAME.partial-PID` beside the file, 0600 and holding the
/// person's data; the next write of that file removes it, and nothing that is not such a leftover.
struct PartialFileSweepTests {
    @Test("export -o removes a dead process's partial of the same file; a live one's, another name's and a link stay")
    func sweep() throws {
        let cli = try RecoveryDeckProcess()
        defer { cli.remove() }
        #expect(try cli.run(["checkin", "--fatigue", "5", "--mood", "5", "--soreness", "5", "--stress", "5", "--sleep", "5"]).status == 0)
        // Process ids that no process holds: children that have exited and been reaped.
        func reaped() throws -> pid_t {
            let child = try Child("/bin/true")
            try child.wait()
            return child.pid
        }
        let dead = try reaped()
        let alsoDead = try reaped()
        let directory = cli.directory.path
        func path(_ name: String) -> String { directory + "/" + name }
        let stale = "out.json.partial-\(dead)"
        let live = "out.json.partial-\(getpid())"
        let other = "other.json.partial-\(dead)"
        for name in [stale, live, other] {
            try Data("half a morning".utf8).write(to: URL(fileURLWithPath: path(name)))
        }
        let link = "out.json.partial-\(alsoDead)"
        #expect(symlink(path(other), path(link)) == 0)
        let written = try cli.run(["export", "-o", path("out.json")])
        #expect(written.status == 0, "\(written.stderr)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(!left.contains(stale), "a dead process's partial is left: \(left)")
        #expect(left.contains(live) && left.contains(other) && left.contains(link))
        #expect(left.contains("out.json"))
        // The link is never followed or removed (whoever made it): its target is still there.
        #expect(FileManager.default.fileExists(atPath: path(other)))
    }
}

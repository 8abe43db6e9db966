import Foundation
import Testing

/// A crash of the CLI must not leave the person's data on disk in a core dump.
struct CoreDumpTests {
    @Test("a running recoverydeck has a core size limit of 0 (soft and hard) and is not dumpable")
    func noCoreDumps() throws {
        let process = Process()
        process.executableURL = try RecoveryDeckProcess.executable
        // Reads standard input until it ends, so the process is alive while the test looks at it.
        process.arguments = ["rr", "analyze", "-"]
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        let pid = process.processIdentifier
        // The limit is set first thing in main; give the process up to 5 s to get there.
        var coreLine = ""
        var dumpable = ""
        for _ in 0..<500 {
            let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
            coreLine = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }.map(String.init) ?? ""
            let words = coreLine.split(separator: " ")
            if words.count >= 6, words[4] == "0", words[5] == "0" { break }
            usleep(10_000)
        }
        let words = coreLine.split(separator: " ")
        #expect(words.count >= 6 && words[4] == "0" && words[5] == "0", "core limit: \(coreLine)")
        // A non-dumpable process's /proc files belong to root (proc(5), PR_SET_DUMPABLE); as another user the
        // owner would differ, and as root the limit above is what tells.
        var info = stat()
        if getuid() != 0, stat("/proc/\(pid)/status", &info) == 0 { dumpable = info.st_uid == 0 ? "no" : "yes" }
        #expect(dumpable != "yes")
    }
}

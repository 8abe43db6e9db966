import Foundation
import TestSupport
import Testing

/// `recoverydeck watch --json | head -1`: once the reader has gone, a command stops. Where SIGPIPE is ignored
/// (a systemd service and everything it starts) the write fails with EPIPE instead of killing the process;
/// the command must still end, with the status the signal would have given.
@Suite struct OutputGoneTests {
    @Test("with SIGPIPE ignored and its reader gone, a command stops at its first write with status 141")
    func stopsWhenReaderIsGone() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])  // The reader is gone before the first write.
        defer { close(ends[1]) }
        // `trap "" PIPE` ignores SIGPIPE, and an ignored signal stays ignored across exec.
        let process = try Child(
            "/bin/sh", ["-c", "trap '' PIPE; exec \"$0\" --help", try RecoveryDeckProcess.executable.path],
            environment: ["PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no"], stdout: .descriptor(ends[1]),
            stderr: .null)
        let ended = try process.wait()
        #expect(ended == .exit(141), "\(ended)")
    }
}

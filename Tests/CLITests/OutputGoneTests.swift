import Foundation
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `trap "" PIPE` ignores SIGPIPE, and an ignored signal stays ignored across exec.
        process.arguments = ["-c", "trap '' PIPE; exec \"$0\" --help", try RecoveryDeckProcess.executable.path]
        process.environment = ["PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no"]
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 141, "exit status \(process.terminationStatus)")
    }
}

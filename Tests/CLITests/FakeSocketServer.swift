import Foundation
import TestSupport

/// A stand-in for a daemon on a control socket: a Python program the test writes, which prints `LISTENING` once
/// it listens. `start` returns when that line is read (a blocking read of its pipe, no polling), so the command
/// under test never races the server's bind.
struct FakeSocketServer {
    let process: Child

    /// Starts `python3 -c script`, as `user` and `group` ids when given (via setpriv), and waits for its first line.
    init(script: String, asUser user: Int? = nil) throws {
        if let user {
            process = try Child(
                "/usr/bin/setpriv",
                ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "/usr/bin/python3", "-c", script],
                stdout: .pipe)
        } else {
            process = try Child("/usr/bin/python3", ["-c", script], stdout: .pipe)
        }
    }

    /// A server that binds a `SOCK_SEQPACKET` socket at `path`, prints LISTENING, takes one connection as `c` and
    /// runs `then` (Python lines) with it.
    init(listeningAt path: String, then body: String) throws {
        try self.init(
            script: """
                import json, socket, time
                s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                s.bind('\(path)'); s.listen(1)
                print('LISTENING', flush=True)
                c, _ = s.accept()

                """ + body)
    }

    /// The server's first line ("LISTENING" when it started), read as it arrives.
    func firstLine() -> String {
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = process.output!.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        return String(decoding: first, as: UTF8.self)
    }

    /// Everything the server printed after its first line, once it has ended.
    func rest() -> String {
        _ = try? process.wait()
        return String(decoding: process.output!.readDataToEndOfFile(), as: UTF8.self)
    }

    func stop() { process.signal(SIGKILL) }
}

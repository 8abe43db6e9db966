import Foundation

/// Another process holding the database's write lock (`BEGIN IMMEDIATE`) until it is told to let go: the
/// real fault a `sqlite3` shell or a backup script causes, not a mock.
public final class LockHolder {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    public init(database: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            sys.stdin.readline()
            db.execute("COMMIT")
            """,
            database,
        ]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Wait until the lock is really held.
        let line = output.fileHandleForReading.readData(ofLength: 7)
        guard String(decoding: line, as: UTF8.self).hasPrefix("locked") else {
            throw LockHolderError()
        }
    }

    public func release() {
        input.fileHandleForWriting.write(Data("go\n".utf8))
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }
}

/// The lock holder's process did not report that it holds the lock.
public struct LockHolderError: Error, CustomStringConvertible {
    public var description: String { "the lock holder did not start" }
}

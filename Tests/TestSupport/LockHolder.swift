import Foundation

/// Another process holding the database's write lock (`BEGIN IMMEDIATE`) until it is told to let go: the
/// real fault a `sqlite3` shell or a backup script causes, not a mock.
public final class LockHolder {
    private let process: Child

    public init(database: String) throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            sys.stdin.readline()
            db.execute("COMMIT")
            """
        process = try Child("/usr/bin/python3", ["-c", script, database], stdin: .pipe, stdout: .pipe)
        // Wait until the lock is really held.
        let line = process.output!.readData(ofLength: 7)
        guard String(decoding: line, as: UTF8.self).hasPrefix("locked") else {
            throw LockHolderError()
        }
    }

    /// Lets go of the lock and waits for the holder to end (a holder that hangs is killed: `Child.wait`).
    public func release() {
        process.input!.write(Data("go\n".utf8))
        _ = try? process.wait()
    }
}

/// The lock holder's process did not report that it holds the lock.
public struct LockHolderError: Error, CustomStringConvertible {
    public var description: String { "the lock holder did not start" }
}

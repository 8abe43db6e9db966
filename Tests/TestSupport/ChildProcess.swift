import CTestSupport
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// A test that needs its own process (an environment of its own, or a process to kill) re-runs this test binary,
/// filtered to a test enabled only in the child.
public enum ChildProcess {
    /// The running test binary's path.
    public static func testBinary() throws -> String {
        var exe = [CChar](repeating: 0, count: 4096)
        guard readlink("/proc/self/exe", &exe, exe.count - 1) > 0 else { throw Errno.current }
        return exe.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Starts `path` with `arguments` (argv[0] first) and `environment`; returns its process id. The child holds
    /// no descriptor of this process's but the standard three (see `Child`). The corresponding C function is
    /// `posix_spawn`.
    public static func spawn(_ path: String, _ arguments: [String], _ environment: [String]) throws -> pid_t {
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let argv = cStrings(arguments)
        let envp = cStrings(environment)
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = cts_spawn(&pid, path, argv, envp, nil, -1, -1, -1, 0)
        guard rc == 0 else { throw Errno(rawValue: rc) }
        return pid
    }

    /// Waits for `pid` to end and returns its wait status (`WIFEXITED` and the rest apply).
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status
    }
}

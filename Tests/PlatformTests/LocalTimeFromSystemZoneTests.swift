import Platform
import RecoveryCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The child half of the /etc/localtime test: enabled only in the child process the parent starts, where
/// a private mount namespace has a copy of the New York zone file over /etc/localtime and TZ is unset.
/// It writes what LocalTime saw to the file named in the environment.
@Test(
    "LocalTime probe (runs only in the child of the /etc/localtime test)",
    .enabled(if: getenv("RECOVERYDECK_LOCALTIME_PROBE") != nil))
func localTimeProbeInChildProcess() throws {
    let out = String(cString: getenv("RECOVERYDECK_LOCALTIME_PROBE"))
    let tzUnset = getenv("TZ") == nil
    let summer = LocalTime(epochSeconds: 1_730_611_800)  // 2024-11-03 05:30 UTC
    let winter = LocalTime(epochSeconds: 1_730_615_400)
    let text =
        "tz-unset=\(tzUnset) \(summer.date) \(summer.minuteOfDay) \(summer.utcOffsetSeconds) "
        + "\(winter.date) \(winter.minuteOfDay) \(winter.utcOffsetSeconds)\n"
    let fd = open(out, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
    try #require(fd >= 0)
    _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    close(fd)
}

@Suite("LocalTime follows /etc/localtime when TZ is unset (DESIGN §4 Clock)")
struct LocalTimeFromSystemZoneTests {
    // The child gets its own mount namespace (unshare, root here as in CI) so the copy shadows
    // /etc/localtime for it alone; it re-runs this test binary filtered to the probe above.
    @Test("With TZ unset and a New York zone file at /etc/localtime, local times and offsets are New York's")
    func systemZoneFile() throws {
        var template = Array("/tmp/recoverydeck-tz-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let zoneCopy = dir + "/localtime"
        let result = dir + "/result"
        defer {
            unlink(zoneCopy)
            unlink(result)
            rmdir(dir)
        }
        try copyFile(from: "/usr/share/zoneinfo/America/New_York", to: zoneCopy)
        var exe = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &exe, exe.count - 1)
        try #require(n > 0)
        let binary = exe.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }

        var arguments = ["unshare", "-m", "--propagation", "private"]
        if getuid() != 0 { arguments.insert("-r", at: 1) }
        arguments += [
            "sh", "-c",
            "mount --bind \"$1\" /etc/localtime && exec \"$2\" --testing-library swift-testing --filter localTimeProbeInChildProcess",
            "sh", zoneCopy, binary,
        ]
        let environment = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "RECOVERYDECK_LOCALTIME_PROBE=\(result)"]
        let status = try run("/usr/bin/unshare", arguments, environment)
        #expect(status == 0)
        let text = try readFile(result)
        #expect(text == "tz-unset=true 2024-11-03 01:30 -14400 2024-11-03 01:30 -18000\n")
    }
}

private func copyFile(from source: String, to destination: String) throws {
    let bytes = try readFileBytes(source)
    let fd = open(destination, O_CREAT | O_TRUNC | O_WRONLY, 0o644)
    try #require(fd >= 0)
    defer { close(fd) }
    #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
}

private func readFileBytes(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    try #require(fd >= 0, "cannot open \(path)")
    defer { close(fd) }
    var all: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n <= 0 { break }
        all += buffer.prefix(n)
    }
    return all
}

private func readFile(_ path: String) throws -> String { String(decoding: try readFileBytes(path), as: UTF8.self) }

/// Starts `path` with `arguments` (argv[0] first) and `environment`, waits, and returns its exit status.
private func run(_ path: String, _ arguments: [String], _ environment: [String]) throws -> Int32 {
    func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
    let argv = cStrings(arguments)
    let envp = cStrings(environment)
    defer {
        for p in argv { free(p) }
        for p in envp { free(p) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, nil, nil, argv, envp)
    try #require(rc == 0, "posix_spawn \(path) failed: \(rc)")
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (status >> 8) & 0xff
}

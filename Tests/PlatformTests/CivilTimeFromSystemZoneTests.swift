import Platform
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The child half of the system-zone test: enabled only in the child process the parent starts, whose
/// environment names a folder laid out like "/" with a New York zone file at etc/localtime, and sets TZ or
/// not. It follows that folder's zone as the box follows "/", and writes what CivilTime saw to the file
/// named in the environment.
@Test(
    "CivilTime probe (runs only in the child of the system-zone test)",
    .enabled(if: getenv("RECOVERYDECK_LOCALTIME_PROBE") != nil))
func civilTimeProbeInChildProcess() throws {
    let out = String(cString: getenv("RECOVERYDECK_LOCALTIME_PROBE"))
    let tzUnset = getenv("TZ") == nil
    CivilTime.followSystemZone(root: String(cString: getenv("RECOVERYDECK_LOCALTIME_ROOT")))
    func reading(_ t: CivilTime) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(t.year)-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute)) \(t.utcOffsetSeconds)"
    }
    let summer = CivilTime(epochSeconds: 1_730_611_800)  // 2024-11-03 05:30 UTC
    let winter = CivilTime(epochSeconds: 1_730_615_400)
    let text = "tz-unset=\(tzUnset) \(reading(summer)) \(reading(winter))\n"
    let fd = open(out, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
    try #require(fd >= 0)
    _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    close(fd)
}

@Suite("CivilTime follows the system zone file when TZ is unset (DESIGN §4 Clock)")
struct CivilTimeFromSystemZoneTests {
    // The zone is read under a root folder (as doctor reads its files), so no mount namespace or privilege
    // is needed; the child re-runs this test binary filtered to the probe above, with its own environment.
    @Test("With TZ unset the zone file under the root gives New York's times and offsets; a set TZ wins")
    func systemZoneFile() throws {
        var template = Array("/tmp/recoverydeck-tz-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let result = dir + "/result"
        defer {
            unlink(CivilTime.systemZoneFile(root: dir))
            rmdir(dir + "/etc")
            unlink(result)
            rmdir(dir)
        }
        #expect(CivilTime.systemZoneFile(root: dir) == dir + "/etc/localtime")
        #expect(CivilTime.systemZoneFile() == "/etc/localtime")
        try #require(mkdir(dir + "/etc", 0o755) == 0)
        try copyFile(from: "/usr/share/zoneinfo/America/New_York", to: CivilTime.systemZoneFile(root: dir))
        let binary = try ChildProcess.testBinary()
        let arguments = [binary, "--testing-library", "swift-testing", "--filter", "civilTimeProbeInChildProcess"]
        let environment = [
            "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "RECOVERYDECK_LOCALTIME_PROBE=\(result)",
            "RECOVERYDECK_LOCALTIME_ROOT=\(dir)",
        ]

        #expect(try run(binary, arguments, environment) == 0)
        #expect(try readFile(result) == "tz-unset=true 2024-11-03 01:30 -14400 2024-11-03 01:30 -18000\n")
        #expect(try run(binary, arguments, environment + ["TZ=UTC0"]) == 0)
        #expect(try readFile(result) == "tz-unset=false 2024-11-03 05:30 0 2024-11-03 06:30 0\n")
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
    let pid = try ChildProcess.spawn(path, arguments, environment)
    return (ChildProcess.wait(pid) >> 8) & 0xff
}

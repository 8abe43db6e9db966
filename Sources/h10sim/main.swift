import BlueZ

#if canImport(Glibc)
    import Glibc
#endif

/// h10sim: a virtual Polar H10 on a Bluetooth controller of this machine (see `SimulatorOptions.usage`).
func runSimulator() -> Int32 {
    let options: SimulatorOptions
    do {
        options = try SimulatorOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        if case .usage(let text) = error, text == SimulatorOptions.usage {
            print(text)
            return 0
        }
        printError(error.description)
        return 64
    }
    do {
        if let path = options.rrFile {
            let intervals = try RRFileReplay.parse(try readFile(path))
            var artifacts: ArtifactInjector?
            if options.artifactRate > 0 { artifacts = ArtifactInjector(rate: options.artifactRate, seed: options.seed) }
            try VirtualStrap(options: options, source: RRFileReplay(intervals: intervals, artifacts: artifacts)).run()
        } else {
            let source = SyntheticBeats(
                seed: options.seed, day: options.day, standAtMs: options.standAtS.map { Int64($0 * 1000) },
                artifactRate: options.artifactRate)
            try VirtualStrap(options: options, source: source).run()
        }
        return 0
    } catch {
        printError(error.description)
        return 1
    }
}

func printError(_ text: String) {
    let bytes = Array(("h10sim: " + text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func readFile(_ path: String) throws(SimulatorError) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { throw .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
        if n == 0 { break }
        data += chunk[..<n]
    }
    return String(decoding: data, as: UTF8.self)
}

exit(runSimulator())

import BlueZ
import Platform

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
            try SimulatedH10(options: options, source: RRFileReplay(intervals: intervals, artifacts: artifacts)).run()
        } else {
            let source = SyntheticBeats(
                seed: options.seed, day: options.day, standAtMs: options.standAtS.map { Int64($0 * 1000) },
                artifactRate: options.artifactRate)
            try SimulatedH10(options: options, source: source).run()
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

/// An RR file: a day of beats is about 100 000 lines of a few bytes; 64 MiB is far beyond any real one.
func readFile(_ path: String) throws(SimulatorError) -> String {
    do {
        return String(decoding: try FileDescriptor.readContents(atPath: path, limit: 64 << 20), as: UTF8.self)
    } catch {
        throw .unreadableFile(error)
    }
}

exit(runSimulator())

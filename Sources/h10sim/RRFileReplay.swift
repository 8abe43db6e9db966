import RecoveryCore

/// Replays RR intervals read from a file, one per line in milliseconds (decimals allowed; blank
/// lines and lines starting with `#` are skipped), quantised to 1/1024 s as the strap sends them
/// (RecoveryDeck spec §4.1: rr_ms = rr_raw × 1000 / 1024).
struct RRFileReplay: BeatSource {
    let intervals: [UInt16]
    private var index = 0
    private var artifacts: ArtifactInjector?
    private var pending: [UInt16] = []

    init(intervals: [UInt16], artifacts: ArtifactInjector? = nil) {
        self.intervals = intervals
        self.artifacts = artifacts
    }

    /// Parses the file's text (LF or CRLF line ends). Throws one sentence naming the first bad line.
    static func parse(_ text: String) throws(SimulatorError) -> [UInt16] {
        var intervals: [UInt16] = []
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: " \t")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let ms = Double(trimmed), ms.isFinite, ms > 0, let raw = quantise(ms) else {
                throw .badRRFile(line: number + 1, text: String(trimmed.prefix(40)))
            }
            intervals.append(raw)
        }
        guard !intervals.isEmpty else { throw .emptyRRFile }
        return intervals
    }

    /// Milliseconds to the strap's 1/1024 s, rounded; nil outside 1…65535.
    static func quantise(_ ms: Double) -> UInt16? {
        let raw = (ms * 1024 / 1000).rounded()
        return raw >= 1 && raw <= 65_535 ? UInt16(raw) : nil
    }

    mutating func nextRR() -> UInt16? {
        if !pending.isEmpty { return pending.removeFirst() }
        guard index < intervals.count else { return nil }
        let rr = intervals[index]
        index += 1
        guard var injector = artifacts else { return rr }
        let nextOne = index < intervals.count ? intervals[index] : nil
        let out = injector.apply(to: rr, next: nextOne)
        artifacts = injector
        if out.consumedNext { index += 1 }
        pending = Array(out.intervals.dropFirst())
        return out.intervals.first
    }
}

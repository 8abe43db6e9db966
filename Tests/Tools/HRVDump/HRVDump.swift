// hrv-dump: the HRV oracle stage's view of RecoveryCore (Tests/stages/10-hrv-oracles.sh). Not shipped.
//
//   hrv-dump [--window whole|morning] [--rule pattern|spec-20] < rr.txt        RR in ms, one per line
//   hrv-dump --synthetic SEED --day N [--ectopic P] [--artifact P] [--duration-ms MS] [--window ...]
//
// Prints one JSON object: the input list, what became of each input beat ("verdicts": "a" accepted, "r" rejected,
// "-" not counted: the morning window's settle, or after it closed), the list the artifact filter accepted, our
// metrics on it, and our metrics on the unfiltered input (what the oracle libraries compute when handed a list).
import RecoveryCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@main
struct HRVDump {
    static func fail(_ message: String, code: Int32 = 64) -> Never {
        let line = "hrv-dump: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        exit(code)
    }

    static func main() {
        var window = HRVAnalysis.Window.whole
        var rule = ArtifactRule.default
        var seed: UInt64?
        var day = 0
        var ectopic = 0.0
        var artifact = 0.0
        var durationMs: Int64 = 300_000
        var arguments = CommandLine.arguments.dropFirst()
        func value<T>(_ name: String, _ parse: (String) -> T?, _ message: String) -> T {
            guard let text = arguments.popFirst(), let v = parse(text) else { fail("\(name) \(message)") }
            return v
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--window": window = value(argument, { HRVAnalysis.Window(rawValue: $0) }, "is whole or morning")
            case "--rule": rule = value(argument, { ArtifactRule(rawValue: $0) }, "is pattern or spec-20")
            case "--synthetic": seed = value(argument, { UInt64($0) }, "needs a whole number seed")
            case "--day": day = value(argument, { Int($0) }, "needs a whole number")
            case "--ectopic": ectopic = value(argument, { Double($0) }, "needs a probability")
            case "--artifact": artifact = value(argument, { Double($0) }, "needs a probability")
            case "--duration-ms": durationMs = value(argument, { Int64($0) }, "needs a whole number")
            default: fail("unknown argument \(argument)")
            }
        }

        var input: [Double] = []
        if let seed {
            let morning = SyntheticPerson(seed: seed).morning(
                day: day, standAtMs: nil, durationMs: durationMs,
                options: .init(ectopicProbability: ectopic, artifactProbability: artifact))
            input = morning.beats.map(\.rrMs)
        } else {
            var lineNumber = 0
            while let line = readLine() {
                lineNumber += 1
                let text = line.filter { !$0.isWhitespace }
                if text.isEmpty { continue }
                guard let rr = Double(text), rr.isFinite else {
                    fail("line \(lineNumber) is not a number of ms", code: 1)
                }
                input.append(rr)
            }
        }

        let result = HRVAnalysis.analyze(input, window: window, rule: rule)
        let quality = result.quality.code
        let marks = verdicts(input, window: window, rule: rule)
        // Why each beat of the whole list was rejected ("" accepted), for the benchmark's look at its worst cases.
        var reasons: [String] = []
        var screen = ArtifactScreen(rule: rule)
        for rr in input { screen.push(rr, gapBefore: false) { _, reason, _ in reasons.append(reason?.rawValue ?? "") } }
        screen.flush { _, reason, _ in reasons.append(reason?.rawValue ?? "") }
        let reasonsJSON = "[" + reasons.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        print(
            """
            {"window":"\(window.rawValue)","input":\(json(input)),"verdicts":"\(marks)","reasons":\(reasonsJSON),\
            "accepted":\(json(result.accepted)),\
            "metrics":\(json(result.metrics)),"quality":"\(quality)",\
            "unfiltered":\(json(HRVAnalysis.metricsWithoutFilter(input)))}
            """)
    }

    /// Each input beat's fate, replayed the way `HRVAnalysis.analyze` takes the list (the same filter and window),
    /// read from the counters before and after the beat.
    /// The pattern rule judges a beat when the next ones arrive, so the morning's marks are read from the counts
    /// once the window closed: the n-th counted beat of the capture is the n-th beat after the settle.
    static func verdicts(_ input: [Double], window: HRVAnalysis.Window, rule: ArtifactRule) -> String {
        var marks = ""
        switch window {
        case .whole:
            var filter = ArtifactScreen(rule: rule)
            for rr in input { filter.push(rr, gapBefore: false) { _, reason, _ in marks += reason == nil ? "a" : "r" } }
            filter.flush { _, reason, _ in marks += reason == nil ? "a" : "r" }
        case .morning:
            var configuration = RMSSDWindow.Configuration.morning
            configuration.artifactRule = rule
            var morning = RMSSDWindow(startMs: 0, configuration: configuration)
            var clock = 0.0
            var settle = 0
            var judged: [Character] = []
            var lastAccepted = 0
            var lastRejected = 0
            for rr in input {
                if rr.isFinite { clock += rr }
                let at = Int64(clock.rounded(.down))
                if at < morning.captureStartMs { settle += 1 }
                if case .complete = morning.append(rr, at: at) { break }
                // Beats judged by this one, in order: the rule emits accepted and rejected beats as received.
                lastAccepted = morning.accumulator.count
                lastRejected = morning.rejected
            }
            if !morning.isComplete { _ = morning.finish(at: Int64(clock.rounded(.down))) }
            _ = (lastAccepted, lastRejected)
            judged = replayMarks(input, settle: settle, morning: morning, rule: rule)
            marks = String(repeating: "-", count: settle) + String(judged)
            marks += String(repeating: "-", count: max(0, input.count - marks.count))
        }
        return marks
    }

    /// The capture's beats' marks, from a whole-list judgement of the capture beats primed by the settle beats,
    /// cut where the window counted its last beat.
    static func replayMarks(_ input: [Double], settle: Int, morning: RMSSDWindow, rule: ArtifactRule) -> [Character]
    {
        var screen = ArtifactScreen(rule: rule)
        for rr in input.prefix(settle) { screen.prime(rr) }
        var out: [Character] = []
        let counted = morning.accumulator.count + morning.rejected
        for rr in input.dropFirst(settle) {
            screen.push(rr, gapBefore: false) { _, reason, _ in out.append(reason == nil ? "a" : "r") }
        }
        screen.flush { _, reason, _ in out.append(reason == nil ? "a" : "r") }
        return Array(out.prefix(counted))
    }

    /// Swift prints a Double as the shortest text that reads back to the same value: exact through JSON.
    static func json(_ x: Double?) -> String {
        guard let x, x.isFinite else { return "null" }
        return "\(x)"
    }

    static func json(_ xs: [Double]) -> String { "[" + xs.map { json($0) }.joined(separator: ",") + "]" }

    static func json(_ m: HRVMetrics) -> String {
        """
        {"rmssd_ms":\(json(m.rmssdMs)),"sdnn_ms":\(json(m.sdnnMs)),"mean_rr_ms":\(json(m.meanRRMs)),\
        "mean_hr_bpm":\(json(m.meanHRBpm)),"accepted":\(m.accepted),"rejected":\(m.rejected),\
        "pairs":\(m.pairs ?? 0),\
        "artifact_ratio":\(json(m.artifactRatio))}
        """
    }
}

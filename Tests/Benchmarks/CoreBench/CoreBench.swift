// core-bench: the cost of the morning session's per-sample path (DESIGN §4: nothing on it allocates), driven
// through `MorningSession.handle` as the daemon drives it, against pyhrv's rmssd on the same 1 h series, in one
// run. A benchmark, not a test: it prints figures.
//
//   swift build -c release --product core-bench && .build/release/core-bench [--python P] [--passes N]
//
// Needs the pyhrv venv of Tests/stages/10-hrv-oracles.sh (.venv-hrv-pyhrv).
//
// Both sides are timed the same way: N single passes over the whole series, each pass timed on its own, and
// the fastest and the median pass reported. A pass is short on both sides (~1.3 ms for pyhrv, tens of µs for
// the core), so on a loaded shared machine most passes run without being preempted and the fastest pass is
// the cost of the code, not of its neighbours. The session is fed the series as the strap sends it (whole 1/1024 s,
// one beat a notification, RecoveryDeck spec §4.1), so a figure per RR is per notification; it includes the
// session's few other events (ticks at phase ends, the save and the next morning's start, about 10 a morning).
// The formula line runs on pyhrv's exact values and must match its rMSSD.
//
// Instruction counts (repeatable where timings are not): a pass is its own function, so
//   valgrind --tool=callgrind --toggle-collect='*pathPass*' .build/release/core-bench --passes 10
// collects the 10 timed passes and the one that counts allocations.
import CMallocCounter
import RecoveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// The session's per-sample path, as the daemon drives it: one `MorningSession` (its fixed-capacity RR and heart
/// rate stores, stream continuity, artifact filter, rMSSD window with adjacent pairs, the phase clock) through
/// whole mornings back to back. Each beat of the series is one Heart Rate Measurement notification
/// (`handle(.heartRate)`), preceded by the session's own deadlines as ticks when they fall due; after each
/// `nextDeadlineMs` is asked, as the daemon asks it to arm its timer. A saved morning is answered as the daemon
/// answers it (saved, then the next morning measured over it), so one pass over an hour runs about 20 mornings.
struct PathState {
    static let today = LocalDate(year: 2026, month: 3, day: 10)!
    static let readout = PanelReadout(composite: .green, channels: [.green, .green, .green, .green, .green])

    var session: MorningSession
    var clock: Int64 = 0
    var mornings = 0
    var checksum = 0.0
    /// Heap allocations made inside `handle(.heartRate)` and the `nextDeadlineMs` after it (the per-sample path),
    /// counted only in a pass of its own, so that the timed passes carry no counter reads.
    var sampleAllocations: UInt64 = 0
    var countingAllocations = false
    /// Samples the session refused because its stores were full (none expected: a morning fits).
    var refused = 0

    init() {
        let questionnaire = Questionnaire(date: Self.today, scores: SubjectiveScores([5, 5, 5, 5, 5])!)
        session = MorningSession(day: DayContext(today: Self.today, questionnaire: questionnaire))
        startMorning(overwrite: false)
    }

    var now: SessionTime { SessionTime(monotonicMs: clock, epochSeconds: 1_773_100_800 + clock / 1000) }

    mutating func startMorning(overwrite: Bool) {
        _ = session.handle(.measure(overwrite: overwrite), at: now)
        _ = session.handle(.strapConnected(address: nil, batteryPercent: nil), at: now)
    }

    /// One beat, in its own notification (`notification` holds just `raw`, built before the clock starts).
    @inline(__always)
    mutating func beat(_ raw: UInt16, _ notification: [UInt16]) {
        clock += Int64(raw) * 1000 / 1024
        var ticks = 0
        while let deadline = session.nextDeadlineMs, deadline <= clock, ticks < 8 {
            ticks += 1
            answer(session.handle(.tick, at: SessionTime(monotonicMs: deadline, epochSeconds: now.epochSeconds)))
        }
        let before = countingAllocations ? malloc_counter_count() : 0
        let actions = session.handle(.heartRate(bpm: UInt16(61_440 / Int(raw)), rr: notification), at: now)
        _ = session.nextDeadlineMs
        if countingAllocations { sampleAllocations += malloc_counter_count() - before }
        if !actions.isEmpty { answer(actions) }
    }

    /// What the daemon does with the session's actions, as far as the next morning depends on it.
    mutating func answer(_ actions: [MorningSession.Action]) {
        for action in actions {
            guard case .save(let morning, _) = action else { continue }
            mornings += 1
            checksum += morning.hrv?.rmssdMs ?? 0
            refused += session.refusedSamples.rr + session.refusedSamples.heartRates
            _ = session.handle(.saved(Self.readout), at: now)
            startMorning(overwrite: true)
        }
        switch session.phase {
        case .idle, .showingFault: startMorning(overwrite: true)  // a capture that failed and was not retried
        case .offeringRetry: _ = session.handle(.go(.short), at: now)
        default: break
        }
    }
}

@main
struct CoreBench {
    static func fail(_ message: String) -> Never {
        let line = "core-bench: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        exit(1)
    }

    static func nowNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Runs `command` and returns its stdout lines (the pyhrv side of the comparison).
    static func lines(of command: String) -> [String] {
        guard let pipe = popen(command, "r") else { fail("cannot run \(command)") }
        var result: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            result.append(String(line.filter { $0 != "\n" }))
        }
        if pclose(pipe) != 0 { fail("\(command) failed (run Tests/stages/10-hrv-oracles.sh once to create the venv)") }
        return result
    }

    /// The 1-minute load average, so the figures say how busy the machine was.
    static func loadAverage() -> String {
        guard let file = fopen("/proc/loadavg", "r") else { return "?" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "?" }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(text.split(separator: " ").first ?? "?")
    }

    /// pyhrv's side: loads SampleNNISeriesLong from the installed package, times `passes` single calls of
    /// `time_domain.rmssd` on it, and prints "<fastest ns per RR> <median ns per RR> <rMSSD ms> <count>", then the
    /// series, one RR in ms per line, so the core is measured on exactly the same values in the same run.
    static let pyhrvScript = #"""
        import importlib.util, os, sys, time
        import numpy as np
        import pyhrv.time_domain as td
        files = os.path.join(os.path.dirname(importlib.util.find_spec("pyhrv").origin), "files")
        nni = np.load(os.path.join(files, "SampleNNISeriesLong.npy")).astype(float)
        rmssd = td.rmssd(nni=nni)["rmssd"]
        passes = []
        for _ in range(int(sys.argv[1])):
            start = time.perf_counter_ns()
            td.rmssd(nni=nni)
            passes.append(time.perf_counter_ns() - start)
        passes.sort()
        print(f"{passes[0] / len(nni)} {passes[len(passes) // 2] / len(nni)} {float(rmssd)!r} {len(nni)}")
        for x in nni:
            print(repr(float(x)))
        """#

    /// One pass of the per-sample path over the series.
    @inline(never)
    static func pathPass(_ raws: UnsafeBufferPointer<UInt16>, _ notifications: [[UInt16]], _ state: inout PathState) {
        for i in 0..<raws.count { state.beat(raws[i], notifications[i]) }
    }

    /// The rMSSD formula alone over the series (what pyhrv's rmssd computes), for a like-for-like figure.
    @inline(never)
    static func formulaPass(_ series: UnsafeBufferPointer<Double>) -> Double {
        var accumulator = HRVAccumulator()
        for rr in series { accumulator.add(rr) }
        return accumulator.rmssdMs ?? 0
    }

    /// Fastest and median of `passes` timed runs of `body`, in ns. `times` is preallocated scratch; `allocations`
    /// counts the heap allocations made by the runs themselves (not by the sort after them).
    static func time(
        _ passes: Int, _ times: inout [UInt64], allocations: inout UInt64, _ body: () -> Void
    ) -> (fastest: UInt64, median: UInt64) {
        let before = malloc_counter_count()
        for i in 0..<passes {
            let start = nowNs()
            body()
            times[i] = nowNs() - start
        }
        allocations += malloc_counter_count() - before
        times[0..<passes].sort()
        return (times[0], times[passes / 2])
    }

    static func main() {
        var python = ".venv-hrv-pyhrv/bin/python"
        var passes = 200
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
            switch argument {
            case "--python": python = value
            case "--passes":
                guard let n = Int(value), n > 0 else { fail("--passes needs a whole number") }
                passes = n
            default: fail("unknown argument \(argument)")
            }
        }
        let loadAtStart = loadAverage()

        // pyhrv first: its timing line, then the series itself.
        let quotedScript =
            "'"
            + pyhrvScript.split(separator: "'", omittingEmptySubsequences: false)
            .joined(separator: #"'\''"#) + "'"
        let output = lines(of: "'\(python)' -c \(quotedScript) \(passes)")
        guard let head = output.first?.split(separator: " "), head.count == 4,
            let pyhrvFastest = Double(head[0]), let pyhrvMedian = Double(head[1]), let pyhrvRMSSD = Double(head[2])
        else { fail("unexpected output from pyhrv's side: \(output.first ?? "nothing")") }
        let series = output.dropFirst().compactMap(Double.init)
        guard series.count == Int(head[3]) else { fail("pyhrv's series did not arrive whole") }
        let raws = series.map { UInt16(($0 * 1.024).rounded()) }
        var times = [UInt64](repeating: 0, count: passes)

        // The counter must see allocations, or a zero below would mean nothing.
        let probeBefore = malloc_counter_count()
        let probe = [Int](repeating: 1, count: 1000)
        guard malloc_counter_count() > probeBefore, probe.count == 1000 else {
            fail("the malloc counter is not active")
        }

        let notifications = raws.map { [$0] }
        var state = PathState()
        var warmUp = 0.0
        for raw in raws { warmUp += Double(raw) }  // first-touch page faults, caches
        guard warmUp > 0 else { fail("the series is empty") }
        var allocations: UInt64 = 0
        let path = raws.withUnsafeBufferPointer { raws in
            time(passes, &times, allocations: &allocations) { pathPass(raws, notifications, &state) }
        }
        let timedMornings = state.mornings
        state.countingAllocations = true
        raws.withUnsafeBufferPointer { raws in pathPass(raws, notifications, &state) }
        var formulaRMSSD = 0.0
        var formulaAllocations: UInt64 = 0
        let formula = series.withUnsafeBufferPointer { series in
            time(passes, &times, allocations: &formulaAllocations) { formulaRMSSD = formulaPass(series) }
        }
        if abs(formulaRMSSD - pyhrvRMSSD) > 1e-6 * pyhrvRMSSD {
            fail("rMSSD differs from pyhrv: \(formulaRMSSD) vs \(pyhrvRMSSD)")
        }

        /// `x` with exactly `digits` decimals (no Foundation formatter in this tool).
        func f(_ x: Double, _ digits: Int = 1) -> String {
            var scale = 1.0
            for _ in 0..<digits { scale *= 10 }
            let scaled = Int((abs(x) * scale).rounded())
            let whole = String(scaled / Int(scale))
            let sign = x < 0 && scaled != 0 ? "-" : ""
            guard digits > 0 else { return sign + whole }
            let fraction = String(scaled % Int(scale))
            return sign + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        func perRR(_ ns: UInt64) -> Double { Double(ns) / Double(raws.count) }
        func row(_ label: String, _ fastest: Double, _ median: Double) {
            func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
            let labelled = label + String(repeating: " ", count: max(0, 58 - label.count))
            print(labelled + pad(f(fastest, 2), 9) + pad(f(median, 2), 10))
        }
        print(
            "series: pyhrv SampleNNISeriesLong, \(series.count) RR (\(f(series.reduce(0, +) / 1000, 0)) s); "
                + "each figure is \(passes) single passes over the whole series")
        print(
            "load average (1 min): \(loadAtStart) at start, \(loadAverage()) at end, "
                + "on \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs")
        print("ns per RR" + String(repeating: " ", count: 53) + "fastest    median")
        row("RecoveryCore session per-sample path (MorningSession.handle)", perRR(path.fastest), perRR(path.median))
        row("RecoveryCore rMSSD formula alone (HRVAccumulator)", perRR(formula.fastest), perRR(formula.median))
        row("pyhrv 0.5.0 time_domain.rmssd", pyhrvFastest, pyhrvMedian)
        print(
            "pyhrv / session per-sample path: \(f(pyhrvFastest / perRR(path.fastest)))x fastest to fastest, "
                + "\(f(pyhrvMedian / perRR(path.median)))x median to median; "
                + "pyhrv / formula: \(f(pyhrvFastest / perRR(formula.fastest)))x (fastest)")
        print(
            "heap allocations in heartRate events: \(state.sampleAllocations) in \(raws.count) RR (a pass of its own); "
                + "in whole mornings (ticks, sounds, the saved morning's copy): \(allocations) in "
                + "\(timedMornings) mornings (\(f(Double(allocations) / Double(max(1, timedMornings)))) per morning)")
        print(
            "mornings saved: \(state.mornings) (rMSSD checksum \(f(state.checksum, 0))), samples refused: "
                + "\(state.refused); rMSSD of the series \(formulaRMSSD) = pyhrv's \(pyhrvRMSSD)")
        if state.sampleAllocations != 0 { fail("the per-sample path allocated \(state.sampleAllocations) times") }
        if state.mornings == 0 { fail("no morning was saved: the bench did not run the session's path") }
    }
}

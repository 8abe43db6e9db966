// insights-bench: figures for the insights engine (calibration grid, scan timings). Prints, asserts nothing.
//   insights-bench grid [--trials T] [--resamples B] [--seed S] [--rho list] [--n list] [--effect r] [--missing f]
//   insights-bench shifts [--trials T] [--resamples B] [--seed S] [--rho list] [--n list] [--shift d]
//   insights-bench scan [--tests K] [--n N] [--resamples B] [--threads 1|all|both] [--repeat R]
//   insights-bench experiment [--trials T] [--redraws R] [--seed S] [--rho list] [--days list] [--block K]
//                             [--missing f] [--planted 0|1] [--json 1]
//   insights-bench lights [--days N] [--try A,B] [--seed S] [--repeat R]
import Dispatch
import Glibc
import Insights
import RecoveryCore

let dispatchParallel = ParallelFor { count, body in
    DispatchQueue.concurrentPerform(iterations: count) { body($0) }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

var args = Array(CommandLine.arguments.dropFirst())
let mode = args.isEmpty ? "grid" : args.removeFirst()
func parseOptions(_ args: [String]) -> [String: String] {
    var out: [String: String] = [:]
    var rest = args[...]
    while let key = rest.first, key.hasPrefix("--"), rest.count >= 2 {
        out[String(key.dropFirst(2))] = rest[rest.startIndex + 1]
        rest = rest.dropFirst(2)
    }
    return out
}
let options = parseOptions(args)
func list(_ key: String, _ fallback: [Double]) -> [Double] {
    options[key].map { $0.split(separator: ",").compactMap { Double($0) } } ?? fallback
}
func fmt(_ v: Double, _ digits: Int = 3) -> String {
    let scale = Double([1, 10, 100, 1000, 10000][digits])
    let r = (v * scale).rounded() / scale
    var s = String(r)
    if let dot = s.firstIndex(of: ".") {
        let decimals = s.distance(from: dot, to: s.endIndex) - 1
        if decimals < digits { s += String(repeating: "0", count: digits - decimals) }
    }
    return s
}

switch mode {
case "grid":
    let trials = Int(options["trials"] ?? "1000") ?? 1000
    let resamples = Int(options["resamples"] ?? "2000") ?? 2000
    let seed = UInt64(options["seed"] ?? "20260802") ?? 20_260_802
    let effect = Double(options["effect"] ?? "0") ?? 0
    let missing = Double(options["missing"] ?? "0") ?? 0
    let asJSON = options["json"] != nil
    if !asJSON { print("rho\tn\ttrials\tnaive\tblock\tengine\tengine+floor\tfloor-only\tci-cover\tseconds") }
    for rho in list("rho", [0, 0.3, 0.5, 0.7, 0.85]) {
        for n in list("n", [90, 120, 365]) {
            let started = monotonicSeconds()
            // Each cell its own seed so Monte Carlo errors are independent between cells.
            let cellSeed = seed ^ (UInt64(rho * 1000) << 20) ^ UInt64(n)
            let s = CalibrationSettings(
                rho: rho, n: Int(n), trials: trials, resamples: resamples, seed: cellSeed, effect: effect,
                missing: missing)
            let o = Calibration.run(s, parallel: dispatchParallel)
            let took = monotonicSeconds() - started
            if asJSON {
                print(
                    "{\"rho\": \(rho), \"n\": \(Int(n)), \"effect\": \(effect), \"missing\": \(missing), "
                        + "\"trials\": \(o.trials), "
                        + "\"resamples\": \(resamples), \"naive\": \(o.naiveRate), \"block_bootstrap\": "
                        + "\(o.blockBootstrapRate), \"engine\": \(o.engineRate), \"engine_with_floor\": "
                        + "\(o.engineWithFloorRate), \"floor_only\": \(o.floorOnlyRate), \"ci_coverage\": \(o.ciCoverage), "
                        + "\"seconds\": \(took)}")
                continue
            }
            print(
                "\(rho)\t\(Int(n))\t\(o.trials)\t\(fmt(o.naiveRate))\t\(fmt(o.blockBootstrapRate))\t"
                    + "\(fmt(o.engineRate))\t\(fmt(o.engineWithFloorRate))\t\(fmt(o.floorOnlyRate))\t\(fmt(o.ciCoverage))\t"
                    + "\(fmt(took, 1))")
        }
    }
case "shifts":
    // The change-point test's rejection rate on AR(1) series: --shift d moves the mean by d marginal SDs after
    // the middle day (0: false-positive rate).
    let trials = Int(options["trials"] ?? "1000") ?? 1000
    let resamples = Int(options["resamples"] ?? "2000") ?? 2000
    let seed = UInt64(options["seed"] ?? "20260805") ?? 20_260_805
    let shift = Double(options["shift"] ?? "0") ?? 0
    let asJSON = options["json"] != nil
    if !asJSON { print("rho\tn\ttrials\tshift\trejected\twith-floor\tseconds") }
    for rho in list("rho", [0, 0.3, 0.5, 0.7, 0.85]) {
        for n in list("n", [45, 60, 90, 120, 365]) {
            let started = monotonicSeconds()
            let cellSeed = seed ^ (UInt64(rho * 1000) << 20) ^ UInt64(n)
            let o = Calibration.runShifts(
                rho: rho, n: Int(n), trials: trials, resamples: resamples, seed: cellSeed, shift: shift,
                parallel: dispatchParallel)
            let took = monotonicSeconds() - started
            let rate = Double(o.rejections) / Double(max(1, o.trials))
            let floored = Double(o.withFloor) / Double(max(1, o.trials))
            if asJSON {
                print(
                    "{\"kind\": \"shift\", \"rho\": \(rho), \"n\": \(Int(n)), \"shift\": \(shift), "
                        + "\"trials\": \(o.trials), \"resamples\": \(resamples), \"rate\": \(rate), "
                        + "\"with_floor\": \(floored), \"seconds\": \(took)}")
            } else {
                print("\(rho)\t\(Int(n))\t\(o.trials)\t\(shift)\t\(fmt(rate))\t\(fmt(floored))\t\(fmt(took, 1))")
            }
        }
    }
case "experiment":
    // T4: the randomisation test's rejection rate at alpha 0.05 on simulated people (log-normal AR(1) rMSSD, a
    // 60-morning history to plan from, --missing of mornings unmeasured). --planted 1 lowers every habit morning
    // by the change the person's own plan promised to detect with 80 % power.
    let trials = Int(options["trials"] ?? "1000") ?? 1000
    let redraws = Int(options["redraws"] ?? "999") ?? 999
    let seed = UInt64(options["seed"] ?? "20261201") ?? 20_261_201
    let block = Int(options["block"] ?? "4") ?? 4
    let missing = Double(options["missing"] ?? "0.1") ?? 0.1
    let planted = options["planted"] == "1"
    let asJSON = options["json"] != nil
    if !asJSON { print("rho\tdays\tblock\ttrials\tplanted\tpromised-ms\trejected\tci-cover\tseconds") }
    for rho in list("rho", [0, 0.5, 0.7, 0.85]) {
        for days in list("days", [28, 56]) {
            let started = monotonicSeconds()
            let cellSeed = seed ^ (UInt64(rho * 1000) << 20) ^ UInt64(days)
            let o = ExperimentCalibration.run(
                ExperimentCalibration.Settings(
                    rho: rho, mornings: Int(days), block: block, trials: trials, redraws: redraws, seed: cellSeed,
                    planted: planted, missing: missing),
                parallel: dispatchParallel)
            let took = monotonicSeconds() - started
            if asJSON {
                print(
                    "{\"kind\": \"experiment\", \"rho\": \(rho), \"days\": \(Int(days)), \"block\": \(block), "
                        + "\"trials\": \(o.trials), \"redraws\": \(redraws), \"planted\": \(planted), "
                        + "\"missing\": \(missing), \"promised_change\": \(o.meanPromisedChange), "
                        + "\"rate\": \(o.rate), \"ci_coverage\": \(o.coverage), \"seconds\": \(took)}")
            } else {
                print(
                    "\(rho)\t\(Int(days))\t\(block)\t\(o.trials)\t\(planted)\t\(fmt(o.meanPromisedChange, 1))\t"
                        + "\(fmt(o.rate))\t\(fmt(o.coverage))\t\(fmt(took, 1))")
            }
        }
    }
case "person-shifts":
    // Shift tests on synthetic people (no planted shift): how often each outcome's test rejects.
    let people = Int(options["people"] ?? "100") ?? 100
    let count = Int(options["days"] ?? "150") ?? 150
    let resamples = Int(options["resamples"] ?? "500") ?? 500
    var rejections = [Outcome: Int]()
    var survivors = 0
    for seed in 1...people {
        let days = SyntheticPerson(seed: UInt64(seed)).plantedRecords(count: count)
        var report = Scan(resamples: resamples, seed: UInt64(seed))
        report.habits = []
        let r = report.run(days: days, parallel: dispatchParallel)
        for s in r.shifts where s.result.p < 0.05 { rejections[s.outcome, default: 0] += 1 }
        survivors += r.shifts.filter(\.survived).count
    }
    for o in Outcome.allCases { print("\(o.label): p < 0.05 in \(rejections[o, default: 0]) of \(people)") }
    print("surviving shifts: \(survivors)")
case "person":
    // Findings for synthetic people: --planted 1|0, --people K, --days N.
    let planted = (options["planted"] ?? "1") == "1"
    let people = Int(options["people"] ?? "10") ?? 10
    let count = Int(options["days"] ?? "120") ?? 120
    let resamples = Int(options["resamples"] ?? "2000") ?? 2000
    var falseShare = 0.0
    var nullSurvivors = 0
    var nullTests = 0
    var runsWithFalse = 0
    for seed in 1...people {
        let person = SyntheticPerson(
            seed: UInt64(seed), effects: planted ? HabitEffect.planted : HabitEffect.withoutEffects)
        var scan = Scan(resamples: resamples, seed: UInt64(seed))
        scan.method = AssociationTest.Method(rawValue: options["method"] ?? "calibrated") ?? .calibrated
        let unrelated = options["unrelated"] != nil
        let days =
            unrelated
            ? SyntheticPerson.unrelatedRecords(seed: UInt64(seed), count: count) : person.plantedRecords(count: count)
        let report = scan.run(days: days, parallel: dispatchParallel)
        let isNull: (TestedPair) -> Bool = {
            if case .metric(let m) = $0.feature {
                return unrelated && (m == .subjective) != ($0.outcome == .subjective)
            }
            return unrelated ? !($0.outcome == .subjective && !$0.feature.isBinary) : $0.feature.isBinary
        }
        let v = report.family.filter { isNull($0) && $0.survived }.count
        let r = report.family.filter(\.survived).count
        falseShare += r > 0 ? Double(v) / Double(r) : 0
        nullSurvivors += v
        nullTests += report.family.filter(isNull).count
        if v > 0 { runsWithFalse += 1 }
        if options["quiet"] != nil { continue }
        print("person \(seed): \(report.headline); habit survivors \(v) of \(r)")
        for f in report.findings where f.feature.isBinary || options["all"] != nil {
            print(
                "  \(f.tier.name) \(f.feature.label) × \(f.outcome.label) lag \(f.lag.rawValue) "
                    + "r=\(fmt(f.association.r, 2)) "
                    + "q=\(fmt(f.q, 4)) n=\(f.association.n) | \(f.sentence) | \(f.tierNote ?? "")")
        }
    }
    print("null survivors \(nullSurvivors) of \(nullTests) null tests; runs with any: \(runsWithFalse) of \(people)")
    print("mean false share (null survivors / survivors): \(fmt(falseShare / Double(people)))")
case "lights":
    // Times `lights --try`'s core (each day judged twice, under the spec's edges and the tried ones) and the ln
    // rMSSD week per day (`history --json`) over N days of a synthetic person; prints the seconds of each repeat,
    // their median, and the back-test's outcome.
    let count = Int(options["days"] ?? "3650") ?? 3650
    let repeats = Int(options["repeat"] ?? "5") ?? 5
    let trial = LightEdges.spec.applying(options["try"] ?? "1.2,1.8")
    guard case .success(let trialEdges) = trial else { fatalError("--try: \(trial)") }
    let person = SyntheticPerson(seed: UInt64(options["seed"] ?? "10") ?? 10)
    let days = person.plantedRecords(count: count)
    let last = days.last!.date
    var backTest: [Double] = []
    var weeks: [Double] = []
    var test: LightsBackTest?
    for _ in 0..<repeats {
        let t0 = monotonicSeconds()
        test = LightsBackTest(days: days, through: last, count: count, current: .spec, trial: trialEdges)
        let t1 = monotonicSeconds()
        var valid = 0
        for offset in 0..<count {
            let date = last.adding(days: offset - count + 1)
            let window = days[max(0, offset - LnRMSSDWeek.baselineWindow)...offset]
            valid += LnRMSSDWeek(days: window, through: date).validMornings
        }
        let t2 = monotonicSeconds()
        precondition(valid >= 0)
        backTest.append(t1 - t0)
        weeks.append(t2 - t1)
        print("back-test \(fmt(t1 - t0, 3)) s, ln weeks \(fmt(t2 - t1, 3)) s")
    }
    print(
        "median over \(repeats): back-test of \(count) days \(fmt(backTest.sorted()[repeats / 2], 3)) s, "
            + "ln rMSSD weeks \(fmt(weeks.sorted()[repeats / 2], 3)) s")
    if let test {
        let r = test.currentCounts[.channel(.rmssd)]!
        let c = test.currentCounts[.composite]!
        print(
            "rMSSD at 1.0/1.5: green \(r.green) yellow \(r.yellow) red \(r.red) unlit \(r.unlit); composite green "
                + "\(c.green) yellow \(c.yellow) red \(c.red); \(test.changes.count) lights change under \(trialEdges)")
    }
case "scan":
    // Times the family step (engine test per pair + BH) on K pairs of AR(1) series, on one thread or all cores
    // (--threads 1|all|both); prints each repeat's seconds and their median.
    let tests = Int(options["tests"] ?? "120") ?? 120
    let n = Int(options["n"] ?? "365") ?? 365
    let resamples = Int(options["resamples"] ?? "2000") ?? 2000
    let repeats = Int(options["repeat"] ?? "5") ?? 5
    let rho = Double(options["rho"] ?? "0.7") ?? 0.7
    let threads = options["threads"] ?? "both"
    var rng = SeededGenerator(seed: 42)
    let pairs = (0..<tests).map { _ in
        (
            x: Calibration.autoregressive(rho: rho, n: n, rng: &rng),
            y: Calibration.autoregressive(rho: rho, n: n, rng: &rng)
        )
    }
    let test = AssociationTest(resamples: resamples)
    var runners: [(String, ParallelFor)] = []
    if threads != "all" { runners.append(("1 thread", .serial)) }
    if threads != "1" { runners.append(("all cores", dispatchParallel)) }
    for (name, runner) in runners {
        var times: [Double] = []
        var checksum = 0.0
        for _ in 0..<repeats {
            let t0 = monotonicSeconds()
            let results = Scan.testFamily(pairs, test: test, seed: 7, parallel: runner)
            let q = benjaminiHochbergQValues(results.map { $0?.p ?? 1 })
            times.append(monotonicSeconds() - t0)
            checksum = q.reduce(0, +)
        }
        let sorted = times.sorted()
        let median =
            sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        print(
            "swift scan \(tests) tests, n=\(n), B=\(resamples), \(name): median of \(repeats) \(fmt(median, 4)) s "
                + "[\(times.map { fmt($0, 4) }.joined(separator: " "))] (sum q \(fmt(checksum, 3)))")
    }
case "oracle":
    // Line protocol for Tests/stages/50-insights-oracles.sh: one case per stdin line, one answer per line.
    //   bh p1 p2 …          → q1 q2 …
    //   tau x1 x2 …         → tau window
    //   pearson n x1…xn y1…yn → r
    //   shift x1 … xn       → G split
    //   bartlett n x… y… d… → effective n
    //   lnweek r1 … rn       → ln mean7 cv7 swc k  (rMSSD per day, "nan" = no valid reading; "nil" = missing)
    while let line = readLine() {
        let parts = line.split(separator: " ")
        guard let kind = parts.first else { continue }
        let values = parts.dropFirst().compactMap { Double($0) }
        switch kind {
        case "bh":
            print(benjaminiHochbergQValues(values).map { "\($0)" }.joined(separator: " "))
        case "tau":
            if let t = Autocorrelation.integratedTime(values) { print("\(t.tau) \(t.window)") } else { print("nil") }
        case "shift":
            // shift x1 … xn → Shao–Zhang's G and the split, with the engine's minimum segment
            if let (g, k) = ShiftTest.statistic(values, minimumSegment: ShiftTest.minimumSegment(values.count)) {
                print("\(g) \(k)")
            } else {
                print("nil")
            }
        case "bartlett":
            // bartlett n x1…xn y1…yn d1…dn → the engine's effective n on those days
            let n = Int(values[0])
            let days = values[(2 * n + 1)...(3 * n)].map { Int($0) }
            let a = AssociationTest(resamples: 20).run(
                x: Array(values[1...n]), y: Array(values[(n + 1)...(2 * n)]), days: days, seed: 1)
            print(a.map { "\($0.effectiveN)" } ?? "nil")
        case "pearson":
            let n = Int(values[0])
            let r = pearson(Array(values[1...n]), Array(values[(n + 1)...(2 * n)]))
            print(r.map { "\($0)" } ?? "nil")
        case "lnweek":
            let w = LnRMSSDWeek(rmssd: values.map { $0.isNaN ? nil : $0 })
            let figures = [w.lnRMSSD, w.rollingMean, w.coefficientOfVariation, w.smallestWorthwhileChange]
            print((figures.map { $0.map { "\($0)" } ?? "nil" } + ["\(w.validMornings)"]).joined(separator: " "))
        default:
            print("unknown")
        }
    }
default:
    print("unknown mode \(mode)")
}

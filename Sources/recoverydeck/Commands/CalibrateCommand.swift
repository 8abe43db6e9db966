import JSON
import Insights
import Store

/// `recoverydeck calibrate`: the false-positive rate (or power) of the findings test on simulated data.
struct CalibrateCommand: Command {
    static let name = "calibrate"
    static let summary = "Measure the findings test's false-positive rate on simulated autocorrelated series."
    static let synopsis: String? =
        "--rho R --n N [--trials T] [--resamples B] [--seed S] [--effect r] [--json]"
    static let discussion = """
        Each trial draws two AR(1) series of N days with lag-one autocorrelation R, independent of each
        other, or correlated at r with --effect (y = r·x + sqrt(1 - r²)·z, so y is AR(1) with the same R).
        The rejection rate at alpha 0.05 is reported for the textbook Pearson t-test, for the block
        bootstrap alone and for the engine's test; without --effect it is the false-positive rate (0.05
        when calibrated), with --effect it is the power. A finding also needs |r| >= 0.25, so its power
        can never exceed the share of trials with |r| >= 0.25 whatever the test (printed as the ceiling:
        0.73 at r 0.3 and 0.97 at r 0.4 for R 0.7, N 365). Same seed, same numbers. Uses every core.
        """
    static let options: [OptionSpec] = [
        .value("rho", "R", help: "Lag-one autocorrelation of both series, between -1 and 1 (required)."),
        .value("n", "N", help: "Days per series, 8 to 100000 (required)."),
        .value("trials", "T", help: "Simulated pairs (default 1000)."),
        .value("resamples", "B", help: "Bootstrap resamples per test (default 2000)."),
        .value("seed", "S", help: "Seed (default 1)."),
        .value("effect", "r", help: "Correlation between the series, between -1 and 1 (default: independent)."),
        .flag("json", help: "Print the rates and the settings as JSON."),
    ]

    let settings: CalibrationSettings
    let hasEffect: Bool
    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        guard let rhoText = parsed.value("rho") else { throw .usage("--rho is required.") }
        guard parsed.value("n") != nil else { throw .usage("--n is required.") }
        let rho = try CalibrateCommand.number(rhoText, what: "--rho")
        let n = try parsed.integer("n", in: 8...100_000)!
        let trials = try parsed.integer("trials", in: 1...1_000_000) ?? 1000
        let resamples = try parsed.integer("resamples", in: 10...1_000_000) ?? 2000
        let seed = try parsed.integer("seed", in: 0...Int.max) ?? 1
        let effect = try parsed.value("effect").map { (t: String) throws(CommandError) in
            try CalibrateCommand.number(t, what: "--effect")
        }
        hasEffect = effect != nil && effect != 0
        json = parsed.flag("json")
        settings = CalibrationSettings(
            rho: rho, n: n, trials: trials, resamples: resamples, seed: UInt64(seed), effect: effect ?? 0)
    }

    static func number(_ text: String, what: String) throws(CommandError) -> Double {
        guard let v = Double(text), v.isFinite else { throw .usage("\(what) must be a number, not \(quoted(text)).") }
        return v
    }

    func validate() throws(CommandError) {
        // The settings name their fields; here they are options.
        if let problem = settings.problem { throw .usage("--" + problem + ".") }
    }

    func run(_ context: Context) throws {
        let o = Calibration.run(settings, parallel: .allCores)
        let s = settings
        let kind = hasEffect ? "power" : "fpr"
        if json {
            var members: [(String, JSONValue)] = [
                ("rho", .number(s.rho)), ("n", JSONValue(s.n)), ("trials", JSONValue(o.trials)),
                ("resamples", JSONValue(s.resamples)), ("seed", .integer(Int64(bitPattern: s.seed))),
                ("effect", hasEffect ? .number(s.effect) : .null), ("alpha", .number(s.alpha)),
                ("naive_\(kind)", .number(o.naiveRate)),
                ("block_bootstrap_\(kind)", .number(o.blockBootstrapRate)),
                ("engine_\(kind)", .number(o.engineRate)),
                ("engine_with_floor_\(kind)", .number(o.engineWithFloorRate)),
                ("floor", .number(s.floor)),
                ("monte_carlo_se", .number(o.standardError(at: hasEffect ? o.engineRate : s.alpha))),
            ]
            if hasEffect { members.append(("floor_only_rate", .number(o.floorOnlyRate))) }
            context.out(JSONValue.object(members).serialized(pretty: true))
            return
        }
        let what = hasEffect ? "correlated at r = \(Formatting.fixed(s.effect, digits: 2))" : "independent"
        let floor = Formatting.fixed(s.floor, digits: 2)
        let se = Formatting.fixed(o.standardError(at: hasEffect ? o.engineRate : s.alpha), digits: 3)
        // One row of the table: the label padded to a fixed column, then the rate.
        func row(_ label: String, _ rate: Double) -> String {
            "  " + label + String(repeating: " ", count: max(1, 31 - label.count)) + Formatting.fixed(rate, digits: 3)
        }
        var lines = [
            "Two AR(1) series, rho \(Formatting.fixed(s.rho, digits: 2)), n \(s.n), \(what); "
                + "\(o.trials) trials × \(s.resamples) resamples, seed \(s.seed).",
            "Rejection rate at alpha \(Formatting.fixed(s.alpha, digits: 2)) "
                + (hasEffect ? "(power):" : "(false-positive rate; 0.05 when calibrated):"),
            row("naive Pearson t-test", o.naiveRate),
            row("block bootstrap alone", o.blockBootstrapRate),
            row("engine", o.engineRate) + "  (Monte Carlo SE \(se))",
            row("engine and |r| >= \(floor)", o.engineWithFloorRate),
        ]
        if hasEffect { lines.append(row("|r| >= \(floor) alone (ceiling)", o.floorOnlyRate)) }
        context.outRaw(lines.joined(separator: "\n") + "\n")
    }
}

import JSON
import Admin
import RecoveryCore
import Store

/// `recoverydeck rr analyze FILE`: the box's artifact rules and rMSSD over a list of RR intervals.
struct RRAnalyzeCommand: Command {
    static let name = "rr analyze"
    static let summary = "Compute rMSSD from a file of RR intervals with the box's artifact rules."
    static let discussion = """
        FILE holds RR intervals: one per line (Elite HRV, Kubios text with # header lines), several
        per line separated by spaces (Welltory), or a table with a header row and an rr column
        (Polar Sensor Logger's "Phone timestamp;RR-interval [ms]", a CSV with an rr column). Blank
        lines and lines starting with # are ignored; CRLF and a byte order mark are fine. Values all
        below 3 are seconds, converted to ms, and said. A file whose intervals are all identical is
        refused. Use - to read standard input.

        The whole file is analysed by default. --window morning applies the morning protocol's
        window instead (15 s settle, then until 60 s of accepted RR with at least 45 beats, at most
        90 s), taking the running sum of the intervals as the clock.

        --rule picks the artifact rule: pattern (the default: missed, extra and ectopic beats found
        by their local pattern, with a threshold scaled to the person's own variability) or spec-20
        (drop an interval more than 20 % away from the previous one). docs/artifacts.md says why.

        rMSSD is taken over pairs of accepted intervals adjacent in the file: a rejected interval
        between two accepted ones breaks their pair. Prints rmssd_ms, mean_rr_ms, mean_hr_bpm,
        sdnn_ms, accepted, rejected, pairs, artifact_ratio and quality: ok, too_few_beats (under 45
        accepted, 60 000 ms of them, or 33 adjacent pairs), too_many_artifacts (over 20 % rejected)
        or rr_unavailable (with --window morning: the file ends within the settle).
        A failed quality is also explained on standard error; the exit status is still 0.
        """
    static let options: [OptionSpec] = [
        .value("window", "whole|morning", help: "Which intervals to use (default whole)."),
        .value("rule", "pattern|spec-20", help: "The artifact rule (default pattern)."),
        .flag("json", help: "Print the result as JSON with full precision."),
    ]
    static let arguments = [ArgumentSpec("FILE", help: "The RR file, or - for standard input.")]

    let file: String
    let window: HRVAnalysis.Window
    let rule: ArtifactRule
    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        file = parsed.positional(0) ?? "-"
        let choice = try parsed.choice("window", of: HRVAnalysis.Window.allCases.map(\.rawValue))
        window = choice.flatMap(HRVAnalysis.Window.init(rawValue:)) ?? .whole
        rule = try parsed.choice("rule", of: ArtifactRule.allCases.map(\.rawValue)).flatMap(ArtifactRule.init) ?? .default
        json = parsed.flag("json")
    }

    func validate() throws(CommandError) {
        if file.isEmpty { throw .usage("FILE is empty; give a path or - for standard input.") }
    }

    func run(_ context: Context) throws {
        let name = file == "-" ? "standard input" : file
        let fd = try Files.openForReading(file)
        defer { if file != "-" { fd.close() } }
        let format: RRFileFormat
        do { format = try ImportFiles.rrFile(fd, name: name) } catch { throw CommandError.failure(error.message) }
        if let note = format.note { context.say("\(name): \(note)") }
        let intervals = format.intervalsMs
        let result = HRVAnalysis.analyze(intervals, window: window, rule: rule)
        let m = result.metrics
        let fields: [(String, JSONValue)] = [
            ("rmssd_ms", JSONValue(m.rmssdMs)), ("mean_rr_ms", JSONValue(m.meanRRMs)),
            ("mean_hr_bpm", JSONValue(m.meanHRBpm)), ("sdnn_ms", JSONValue(m.sdnnMs)),
            ("accepted", JSONValue(m.accepted)), ("rejected", JSONValue(m.rejected)), ("pairs", JSONValue(m.pairs)),
            ("artifact_ratio", .number(m.artifactRatio)), ("quality", .string(result.quality.code)),
        ]
        if json {
            var all = fields
            all.append(("window", .string(window.rawValue)))
            all.append(("rule", .string(rule.rawValue)))
            all.append(("intervals", JSONValue(intervals.count)))
            all.append(("rmssd_method", .string(m.rmssdMethod.rawValue)))
            all.append(("format", .string(format.layout.rawValue)))
            all.append(("unit", .string(format.unit.rawValue)))
            context.out(JSONValue.object(all).serialized(pretty: true))
        } else {
            for (name, value) in fields {
                let text: String
                switch value {
                case .number(let d): text = Formatting.fixed(d, digits: name == "artifact_ratio" ? 4 : 3)
                case .null: text = ReportWording.dash
                case .string(let s): text = s
                default: text = value.serialized()
                }
                context.out(Formatting.padded(name, 16) + text)
            }
        }
        if case .fail(let reason) = result.quality { context.say(RRAnalyzeCommand.explanation(reason, result)) }
    }

    /// Why a list fails quality, in words true of a file: the box's own sentences speak of a strap and of lying
    /// still for 90 s (spec §5.1 floors and ratio).
    static func explanation(_ reason: QualityFailure, _ result: HRVAnalysis.Result) -> String {
        let m = result.metrics
        switch reason {
        case .tooFewBeats:
            let sum = Formatting.fixed(result.acceptedSumMs, digits: 0)
            let needed = Formatting.fixed(Quality.minimumAcceptedSumMs, digits: 0)
            return "Quality fails: \(m.accepted) intervals accepted, \(sum) ms in all, \(m.pairs ?? 0) adjacent pairs; "
                + "a reading needs at least \(Quality.minimumAccepted), \(needed) ms and \(Quality.minimumPairs) pairs."
        case .tooManyArtifacts:
            return "Quality fails: \(m.rejected) of \(m.accepted + m.rejected) intervals rejected as artifacts "
                + "(\(Formatting.fixed(m.artifactRatio * 100, digits: 1)) %); more than 20 % fails."
        case .rrUnavailable:
            return "Quality fails: no interval reached the capture; the file ends within the 15 s settle."
        }
    }
}


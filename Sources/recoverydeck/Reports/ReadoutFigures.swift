import JSON
import Insights
import RecoveryCore
import Store

/// The ln rMSSD week and the band edges as `status`, `history --json`, `lights` and `export` show them, so they
/// agree (Plews 2012, 2014; RecoveryDeck spec §5.4).
enum ReadoutFigures {
    /// `{"lnRMSSD": …, "rollingMean7": …, "cv7Percent": …, "smallestWorthwhileChange": …, "validMornings": k,
    /// "windowMornings": 7, "rollingMeanUnreliable": bool}`; null where a figure has too few mornings.
    static func json(_ w: LnRMSSDWeek) -> JSONValue {
        .object([
            ("lnRMSSD", JSONValue(w.lnRMSSD)),
            ("rollingMean7", JSONValue(w.rollingMean)),
            ("cv7Percent", JSONValue(w.coefficientOfVariation)),
            ("smallestWorthwhileChange", JSONValue(w.smallestWorthwhileChange)),
            ("validMornings", JSONValue(w.validMornings)),
            ("windowMornings", JSONValue(LnRMSSDWeek.window)),
            ("rollingMeanUnreliable", .bool(w.isRollingMeanUnreliable)),
        ])
    }

    /// The ln rMSSD lines of `status`: today, the 7-day mean and CV, the smallest worthwhile change, the week's
    /// validity. ln values to 3 decimals (a 0.5 × SD change is typically 0.05–0.15), CV to 0.1 %.
    static func lines(_ w: LnRMSSDWeek) -> [String] {
        let ln = { (v: Double?) in v.map { Formatting.fixed($0, digits: 3) } ?? ReportWording.dash }
        var mean = "7-day mean " + ln(w.rollingMean)
        if w.rollingMean != nil, w.isRollingMeanUnreliable { mean += " (unreliable)" }
        let cv = w.coefficientOfVariation.map { Formatting.fixed($0, digits: 1) + " %" } ?? ReportWording.dash
        return [
            "ln rMSSD      today \(ln(w.lnRMSSD)), \(mean), 7-day CV \(cv), smallest worthwhile change "
                + "\(ln(w.smallestWorthwhileChange)) (0.5 × 60-day SD)",
            "              " + w.validityWords,
        ]
    }

    /// `{"rmssd": {"yellow": 1.0, "red": 1.5}, …, "spec": true}`.
    static func json(_ edges: LightEdges) -> JSONValue {
        .object(
            Channel.allCases.map { c in
                (c.rawValue, .object([("yellow", .number(edges[c].yellow)), ("red", .number(edges[c].red))]))
            } + [("spec", .bool(edges == .spec))])
    }

    /// "1.0 / 1.5 SD (the spec's)", "1.2 / 1.8 SD", or per channel "rMSSD 1.2 / 1.8, lying HR 1.0 / 1.5, …".
    static func words(_ edges: LightEdges) -> String {
        let pair = { (e: BandEdges) in
            "\(BandEdges.format(e.yellow)) / \(BandEdges.format(e.red))"
        }
        if edges == .spec { return pair(.spec) + " SD (the spec's)" }
        if edges.isUniform { return pair(edges[.rmssd]) + " SD" }
        return Channel.allCases.map { "\($0.label) \(pair(edges[$0]))" }.joined(separator: ", ") + " SD"
    }
}

#if canImport(Glibc)
    import Glibc  // libm's log only: Foundation would link all of itself and ICU's data (about 45 MB) for it.
#elseif canImport(Musl)
    import Musl
#endif
import Insights
import RecoveryCore

/// `recoverydeck report --svg`: for each series (rMSSD, lying HR, gap peak, gap avg, subjective mean),
/// the daily values, the 7-day mean, the 60-day mean ± 1 SD band (Couzens' normal band, spec §5.4),
/// and a row with each day's overall light; below them ln rMSSD with its 7-day mean (drawn only where at least
/// 3 of the 7 mornings were valid, Plews 2014) and the smallest worthwhile change around the 60-day mean
/// (± 0.5 SD, Plews 2012) as its band: a line and a band, not a light. Missing days are gaps: no line is drawn
/// across them.
/// Pure: the days and the last day are given; the result is SVG text.
public enum ReportChart {
    /// The normal band's fill. Opaque, so a rendering has pixels of exactly this colour.
    public static let bandColor = "#c6dbef"
    static let valueColor = "#333333"
    static let acuteColor = "#d95f02"
    static let lightColors: [TrafficLight: String] = [.green: "#2b8a2b", .yellow: "#f2c200", .red: "#d7191c"]
    static let buildingColor = "#1f78b4"
    static let notLikeYouColor = "#7b3294"

    static let width = 960.0
    static let left = 64.0
    static let right = 24.0
    static let panelHeight = 128.0
    static let panelGap = 34.0
    static let top = 84.0

    /// One day of one series as drawn.
    struct Point {
        var index: Int
        var value: Double?
        var acute: Double?
        var bandLow: Double?
        var bandHigh: Double?
    }

    /// One panel as drawn: a channel, or ln rMSSD.
    struct Panel {
        var id: String
        var label: String
        var unit: String
        var points: [Point]
        /// Prefix of the panel's element classes: "" for a channel, "ln-" for ln rMSSD (not a channel, no light).
        var classPrefix = ""
    }

    public static func svg(
        days: [DayRecord], through last: LocalDate, count: Int, title: String = "RecoveryDeck",
        edges: LightEdges = .spec, notLikeYou: Set<LocalDate> = []
    ) -> String {
        let first = LocalDate(dayNumber: last.dayNumber - count + 1)
        let dates = (0..<count).map { LocalDate(dayNumber: first.dayNumber + $0) }
        let readouts = dates.map { Baselines.readout(days: days, today: $0, edges: edges) }
        var byDay: [Int: DayRecord] = [:]
        for d in days { byDay[d.date.dayNumber] = d }

        let plotWidth = width - left - right
        let step = count > 1 ? plotWidth / Double(count - 1) : 0
        let x = { (i: Int) in left + Double(i) * step }
        var panels: [Panel] = Channel.allCases.map { channel in
            Panel(
                id: channel.rawValue, label: channel.label, unit: unit(channel),
                points: dates.indices.map { i -> Point in
                    let r = readouts[i][channel]
                    let value = byDay[dates[i].dayNumber].flatMap(channel.value(in:))
                    let low = r.normMean.flatMap { m in r.normSD.map { m - $0 } }
                    let high = r.normMean.flatMap { m in r.normSD.map { m + $0 } }
                    return Point(index: i, value: value, acute: r.acute, bandLow: low, bandHigh: high)
                })
        }
        panels.append(
            Panel(
                id: "lnRMSSD", label: "ln rMSSD", unit: "ln ms", points: lnPoints(days: days, dates: dates),
                classPrefix: "ln-"))
        let lightsTop = top + Double(panels.count) * (panelHeight + panelGap)
        // A second row under the lights: the days of "not like you" episodes, as `history` marks them.
        let flagsTop = lightsTop + 24
        let height = lightsTop + 110

        var o: [String] = []
        o.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(width)) \(f(height))\" font-family=\"DejaVu Sans, Arial, sans-serif\">"
        )
        o.append("<title>\(escape(title)): \(first.iso) to \(last.iso)</title>")
        o.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
        o.append(
            "<text x=\"\(f(left))\" y=\"28\" font-size=\"20\" font-weight=\"bold\" fill=\"#222\">\(escape(title)) — \(first.iso) to \(last.iso)</text>"
        )
        o.append(
            "<text x=\"\(f(left))\" y=\"48\" font-size=\"12\" fill=\"#555\">dots: daily value · orange: 7-day mean · blue band: 60-day mean ± 1 SD · "
                + "gaps: no morning · \(escape(Baselines.compositeLabel))</text>")

        o.append(
            "<text x=\"\(f(left))\" y=\"62\" font-size=\"11\" fill=\"#555\">ln rMSSD: orange: 7-day mean (at least "
                + "\(LnRMSSDWeek.minimumValidMornings) of \(LnRMSSDWeek.window) mornings valid) · blue band: "
                + "60-day mean ± smallest worthwhile change (0.5 SD) · not a light</text>"
        )

        for (p, panel) in panels.enumerated() {
            let y0 = top + Double(p) * (panelHeight + panelGap)
            let points = panel.points
            let all = points.flatMap { [$0.value, $0.acute, $0.bandLow, $0.bandHigh].compactMap { $0 } }
            var lo = all.min() ?? 0
            var hi = all.max() ?? 1
            if hi - lo < 1e-9 {
                lo -= 1
                hi += 1
            }
            let pad = (hi - lo) * 0.08
            lo -= pad
            hi += pad
            let y = { (v: Double) in y0 + panelHeight - (v - lo) / (hi - lo) * panelHeight }

            o.append("<g class=\"\(panel.classPrefix)series\" id=\"\(panel.id)\">")
            o.append(
                "<rect x=\"\(f(left))\" y=\"\(f(y0))\" width=\"\(f(plotWidth))\" height=\"\(f(panelHeight))\" fill=\"#fbfbfb\" stroke=\"#ddd\"/>"
            )
            o.append(
                "<text x=\"\(f(left))\" y=\"\(f(y0 - 7))\" font-size=\"13\" fill=\"#222\"><tspan font-weight=\"bold\">\(escape(panel.label))</tspan> <tspan fill=\"#777\" font-size=\"11\">\(panel.unit)</tspan></text>"
            )
            for t in ticks(lo, hi) {
                o.append(
                    "<line x1=\"\(f(left))\" x2=\"\(f(left + plotWidth))\" y1=\"\(f(y(t)))\" y2=\"\(f(y(t)))\" stroke=\"#eee\"/>"
                )
                o.append(
                    "<text x=\"\(f(left - 8))\" y=\"\(f(y(t) + 4))\" font-size=\"10\" text-anchor=\"end\" fill=\"#777\">\(label(t))</text>"
                )
            }
            // Band: one polygon per run of days that have a norm.
            for run in runs(points.map { $0.bandLow != nil && $0.bandHigh != nil }) {
                let upper = run.map { "\(f(x($0))),\(f(y(points[$0].bandHigh!)))" }
                let lower = run.reversed().map { "\(f(x($0))),\(f(y(points[$0].bandLow!)))" }
                let pts =
                    run.count == 1
                    ? [
                        "\(f(x(run[0]) - 2)),\(f(y(points[run[0]].bandHigh!)))",
                        "\(f(x(run[0]) + 2)),\(f(y(points[run[0]].bandHigh!)))",
                        "\(f(x(run[0]) + 2)),\(f(y(points[run[0]].bandLow!)))",
                        "\(f(x(run[0]) - 2)),\(f(y(points[run[0]].bandLow!)))",
                    ]
                    : upper + lower
                o.append(
                    "<polygon class=\"\(panel.classPrefix)band\" points=\"\(pts.joined(separator: " "))\" fill=\"\(bandColor)\"/>"
                )
            }
            for run in runs(points.map { $0.acute != nil }) where run.count > 1 {
                let pts = run.map { "\(f(x($0))),\(f(y(points[$0].acute!)))" }.joined(separator: " ")
                o.append(
                    "<polyline class=\"\(panel.classPrefix)acute\" points=\"\(pts)\" fill=\"none\" stroke=\"\(acuteColor)\" stroke-width=\"2.5\"/>"
                )
            }
            for run in runs(points.map { $0.value != nil }) where run.count > 1 {
                let pts = run.map { "\(f(x($0))),\(f(y(points[$0].value!)))" }.joined(separator: " ")
                o.append(
                    "<polyline class=\"\(panel.classPrefix)daily\" points=\"\(pts)\" fill=\"none\" stroke=\"\(valueColor)\" stroke-width=\"1\"/>"
                )
            }
            for p in points {
                guard let v = p.value else { continue }
                o.append(
                    "<circle class=\"\(panel.classPrefix)day\" cx=\"\(f(x(p.index)))\" cy=\"\(f(y(v)))\" r=\"2.6\" fill=\"\(valueColor)\"/>"
                )
            }
            o.append("</g>")
        }

        // Lights row: the composite of each day, blue while baselines build, empty for a day with nothing
        // stored (no morning, no light: a light made from the days around it would carry them forward).
        let cell = max(2, min(step, 14) - 2)
        o.append("<g id=\"lights\">")
        o.append(
            "<text x=\"\(f(left - 8))\" y=\"\(f(lightsTop + 14))\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"end\" fill=\"#222\">light</text>"
        )
        for (i, r) in readouts.enumerated() {
            let fill: String
            switch byDay[dates[i].dayNumber] == nil ? .missing : r.composite {
            case .lit(let light): fill = lightColors[light]!
            case .building: fill = buildingColor
            default: fill = "none"
            }
            let stroke = fill == "none" ? " stroke=\"#ccc\"" : ""
            o.append(
                "<rect class=\"light\" x=\"\(f(x(i) - cell / 2))\" y=\"\(f(lightsTop))\" width=\"\(f(cell))\" height=\"18\" fill=\"\(fill)\"\(stroke)/>"
            )
        }
        o.append(
            "<text x=\"\(f(left - 8))\" y=\"\(f(flagsTop + 11))\" font-size=\"11\" text-anchor=\"end\" fill=\"#222\">unlike you</text>"
        )
        for (i, date) in dates.enumerated() where notLikeYou.contains(date) {
            let (cx, cy, r) = (x(i), flagsTop + 7, min(6, cell / 2 + 1))
            o.append(
                "<polygon class=\"not-like-you\" points=\"\(f(cx)),\(f(cy - r)) \(f(cx + r)),\(f(cy)) \(f(cx)),\(f(cy + r)) \(f(cx - r)),\(f(cy))\" fill=\"\(notLikeYouColor)\"/>"
            )
        }
        // Date labels: first, last and about every fortnight between.
        let every = max(1, count / 6)
        for i in dates.indices where i % every == 0 || i == count - 1 {
            if i != count - 1, count - 1 - i < every / 2 { continue }
            let anchor = i == 0 ? "start" : i == count - 1 ? "end" : "middle"
            o.append(
                "<text x=\"\(f(x(i)))\" y=\"\(f(flagsTop + 36))\" font-size=\"10\" text-anchor=\"\(anchor)\" fill=\"#555\">\(dates[i].iso)</text>"
            )
        }
        o.append("</g>")
        o.append(
            "<text x=\"\(f(left))\" y=\"\(f(flagsTop + 64))\" font-size=\"11\" fill=\"#555\">light row: green / yellow / red = overall light that day; blue = baselines still building (fewer than \(Baselines.buildingCompleteDays) complete days); empty = no light; ◆ = a day of a \"not like you\" stretch</text>"
        )
        o.append("</svg>")
        return o.joined(separator: "\n") + "\n"
    }

    /// The ln rMSSD panel: each day's ln rMSSD, its 7-day mean where at least 3 of the 7 mornings were valid,
    /// and the 60-day mean of ln rMSSD ± the smallest worthwhile change (0.5 × 60-day SD) as the band.
    static func lnPoints(days: [DayRecord], dates: [LocalDate]) -> [Point] {
        var ln: [Int: Double] = [:]
        for d in days {
            if let v = Channel.rmssd.value(in: d), v > 0, v.isFinite { ln[d.date.dayNumber] = log(v) }
        }
        return dates.indices.map { i in
            let w = LnRMSSDWeek(days: days, through: dates[i])
            let n = dates[i].dayNumber
            let values = (n - LnRMSSDWeek.baselineWindow + 1...n).compactMap { ln[$0] }
            // Like the channels' band: drawn once the 60 days hold 14 values (an SD of a handful is noise).
            let mean =
                values.count < Baselines.normMinimumValues ? nil : values.reduce(0, +) / Double(values.count)
            let swc = w.smallestWorthwhileChange
            return Point(
                index: i, value: w.lnRMSSD, acute: w.isRollingMeanUnreliable ? nil : w.rollingMean,
                bandLow: mean.flatMap { m in swc.map { m - $0 } }, bandHigh: mean.flatMap { m in swc.map { m + $0 } })
        }
    }

    /// Runs of consecutive indexes where `present` is true.
    static func runs(_ present: [Bool]) -> [[Int]] {
        var result: [[Int]] = []
        var current: [Int] = []
        for (i, p) in present.enumerated() {
            if p {
                current.append(i)
            } else if !current.isEmpty {
                result.append(current)
                current = []
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    static func unit(_ c: Channel) -> String {
        switch c {
        case .rmssd: "ms"
        case .lyingHR, .gapPeak, .gapAvg: "bpm"
        case .subjective: "mean of 1–7"
        }
    }

    static func ticks(_ lo: Double, _ hi: Double) -> [Double] {
        let span = hi - lo
        let raw = span / 3
        var unit = 1.0
        while unit * 10 <= raw { unit *= 10 }
        while unit > raw { unit /= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * unit }.first { $0 >= raw } ?? unit * 10
        var t = (lo / step).rounded(.up) * step
        var result: [Double] = []
        while t <= hi, result.count < 6 {
            result.append(t)
            t += step
        }
        return result
    }

    static func label(_ v: Double) -> String {
        if abs(v - v.rounded()) < 1e-9, let whole = Int(exactly: v.rounded()) { return String(whole) }
        return oneDecimal(v)
    }

    static func f(_ v: Double) -> String {
        guard let hundredths = Int(exactly: (v * 100).rounded()) else { return "–" }
        let sign = hundredths < 0 ? "-" : ""
        let a = abs(hundredths)
        return a % 100 == 0
            ? sign + String(a / 100) : sign + String(a / 100) + "." + (a % 100 < 10 ? "0" : "") + String(a % 100)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}

import RecoveryCore

/// A small terminal chart for `recoverydeck status`: one block character per day, scaled between the
/// series' own minimum and maximum; a missing day is a space, never a low bar (missing stays missing).
public enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public static func render(_ values: [Double?]) -> String {
        // A non-finite value would make the scale NaN; it is drawn as a gap.
        let values = values.map { $0.flatMap { $0.isFinite ? $0 : nil } }
        let present = values.compactMap { $0 }
        guard let lo = present.min(), let hi = present.max() else { return String(repeating: " ", count: values.count) }
        return String(
            values.map { v -> Character in
                guard let v else { return " " }
                if hi - lo < 1e-9 { return blocks[3] }
                let i = Int(((v - lo) / (hi - lo) * Double(blocks.count - 1)).rounded())
                return blocks[min(max(i, 0), blocks.count - 1)]
            })
    }

    /// One line per series for the last `count` days through `last`: label, sparkline, latest value.
    public static func lines(days: [DayRecord], through last: LocalDate, count: Int = 28) -> [String] {
        var byDay: [Int: DayRecord] = [:]
        for d in days { byDay[d.date.dayNumber] = d }
        let numbers = (last.dayNumber - count + 1)...last.dayNumber
        return Channel.allCases.map { channel in
            let values = numbers.map { byDay[$0].flatMap(channel.value(in:)) }
            let latest =
                values.last(where: { $0 != nil }).flatMap { $0 }.map { ReportChart.label(($0 * 10).rounded() / 10) }
                ?? "–"
            let name = channel.label + String(repeating: " ", count: max(1, 11 - channel.label.count))
            return "\(name)\(render(values))  \(latest)"
        }
    }
}

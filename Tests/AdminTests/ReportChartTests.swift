import Foundation
import RecoveryCore
import Testing

@testable import Admin

/// The report chart: values, 7-day line, 60-day band and lights, with gaps where mornings are missing
/// (RecoveryDeck spec §5.4: missing stays missing, never interpolated).
struct ReportChartTests {
    /// 150 days of a seeded synthetic person (seed 11), every morning complete, minus `missing` days.
    static func history(missing: Set<Int> = []) -> [DayRecord] {
        SyntheticPerson(seed: 11).plantedRecords(count: 150).enumerated().filter { !missing.contains($0.offset) }
            .map(\.element)
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("five series, each with dots for its mornings, a 7-day line and the normal band; one light per day")
    func structure() throws {
        let days = Self.history()
        let last = days.last!.date
        let svg = ReportChart.svg(days: days, through: last, count: 90)
        #expect(count("class=\"series\"", in: svg) == 5)
        #expect(count("class=\"day\"", in: svg) == 5 * 90)
        #expect(count("class=\"light\"", in: svg) == 90)
        #expect(count("class=\"band\"", in: svg) == 5)
        #expect(count("class=\"acute\"", in: svg) == 5)
        #expect(svg.contains("fill=\"\(ReportChart.bandColor)\""))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }

    @Test("the days of a \"not like you\" stretch get a diamond each in their own row; other days none")
    func notLikeYouRow() {
        let days = Self.history()
        let last = days.last!.date
        let flagged: Set<LocalDate> = [last.adding(days: -2), last.adding(days: -1), last, last.adding(days: -40)]
        let svg = ReportChart.svg(days: days, through: last, count: 30, notLikeYou: flagged)
        // Day −40 is outside the 30 charted days.
        #expect(count("class=\"not-like-you\"", in: svg) == 3)
        #expect(count("class=\"not-like-you\"", in: ReportChart.svg(days: days, through: last, count: 30)) == 0)
    }

    @Test("a missing morning breaks the daily line: no segment joins the days around it")
    func gapsAreNotJoined() {
        // Days 125 and 126 missing: chart days 5 and 6 of the last 30 (120…149).
        let days = Self.history(missing: [125, 126])
        let last = days.last!.date
        let svg = ReportChart.svg(days: days, through: last, count: 30)
        #expect(count("class=\"day\"", in: svg) == 5 * 28)
        // Each series' daily line is two polylines: days 0–4 and 7–29 of the chart.
        #expect(count("class=\"daily\"", in: svg) == 10)
        let firstDaily = svg.components(separatedBy: "class=\"daily\" points=\"")[1].components(separatedBy: "\"")[0]
        #expect(firstDaily.split(separator: " ").count == 5)
        // No morning, no light: the two missing days have empty cells, every other day a colour.
        let cells = svg.components(separatedBy: "class=\"light\"").dropFirst().map { $0.prefix { $0 != "/" } }
        #expect(cells.count == 30)
        #expect(cells.indices.filter { cells[$0].contains("fill=\"none\"") } == [5, 6])
    }

    @Test("without 14 days of history there is no band, and the lights row shows baselines building")
    func earlyDays() {
        let days = Array(Self.history().prefix(10))
        let svg = ReportChart.svg(days: days, through: days.last!.date, count: 10)
        #expect(count("class=\"band\"", in: svg) == 0)
        #expect(count("fill=\"\(ReportChart.buildingColor)\"", in: svg) == 10)
    }

    @Test("sparklines: a space for a missing day, the lowest block for the minimum, the highest for the maximum")
    func sparkline() {
        #expect(Sparkline.render([1, nil, 3, 2]) == "▁ █▅")
        #expect(Sparkline.render([nil, nil]) == "  ")
        #expect(Sparkline.render([5, 5]) == "▄▄")
        let lines = Sparkline.lines(days: Self.history(missing: [149]), through: Self.history().last!.date, count: 14)
        #expect(lines.count == 5)
        #expect(lines.allSatisfy { $0.contains(" ") })
        #expect(lines[0].hasPrefix("rMSSD"))
    }
}

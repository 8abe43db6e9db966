import JSON
import Insights
import RecoveryCore
import Store

/// `recoverydeck findings`: which habits and inputs move the person's mornings, with the statistics shown.
struct FindingsCommand: Command {
    static let name = "findings"
    static let summary = "Show which habits and inputs go with your morning numbers, and how sure that is."
    static let discussion = """
        Every habit tag, caffeine amount and time, last meal time and questionnaire score is tested against
        every morning metric (rMSSD, lying HR, gap peak, gap avg, subjective mean), for the same morning
        (lag 0) and the morning after (lag 1); the metrics are also tested against each other on the
        same morning. A habit entered in the morning describes the evening before, so lag 0 already
        means "the morning after the habit". The first line says how many of your questions (habits and
        inputs against the metrics, shifts) were tested and how many survived: they are one family for
        the false-discovery check (Benjamini-Hochberg, q <= 0.10), and a finding also needs |r| >= 0.25.
        p-values come from a block bootstrap corrected for day-to-day autocorrelation.

        Pairs that move together by definition (a score and the subjective mean, a gap and lying HR) and
        the metrics against each other are checks: tested in their own family, listed after the
        findings, labelled near-tautological where they are, and never above T2, so their near-certain
        results do not loosen the check for the findings you would act on.

        Each morning metric is also tested for a lasting shift in its level (a change point, from 45
        days with a value), in the questions' family: "Your rMSSD has been 12 % lower since ...". A
        shift says nothing about why, so it stays at T1.

        Tiers: T1 survives the check; T2 also holds in both halves of your history; T3 also comes first in
        time, no co-occurring habit explains it and neither does the day of the week (each card says
        whether the association holds comparing like days of the week). T4 comes only from your own
        randomised test (`recoverydeck experiment`). Days without a value are left out, never filled in.
        Analyses wait for enough days: 21 days of baseline for a deviation, 45 for a shift, 60 days with
        both values for lag 0, 90 for lag 1 and for T3, and 8 tagged and 8 untagged days for a habit;
        until then the command says how many more are needed.

        Nothing is shown until today's check-in is in (the gate).
        """
    static let options: [OptionSpec] = [
        .flag("json", help: "Print the scan as JSON: every test of the family, the findings and what waits."),
        .value("resamples", "B", help: "Bootstrap resamples per test (100 to 100000; default 2000)."),
        .value("seed", "S", help: "Seed of the resampling (default fixed, so a run repeats)."),
    ]

    let json: Bool
    let resamples: Int
    let seed: UInt64

    init(_ parsed: ParsedArguments) throws(CommandError) {
        json = parsed.flag("json")
        resamples = try parsed.integer("resamples", in: 100...100_000) ?? 2000
        seed = UInt64(try parsed.integer("seed", in: 0...Int.max) ?? 0x5EED_F1ED)
    }

    func run(_ context: Context) throws {
        let store = try context.store()
        try context.requireTodaysCheckin(store)
        let days = try store.allDays()
        let scan = Scan(resamples: resamples, seed: seed, habits: try store.habitList())
        let report = scan.run(days: days, parallel: .allCores)
        let waiting = deviationsPending(days: days, today: context.today)
        if json {
            context.out(FindingsCommand.json(report, waiting: waiting, resamples: resamples).serialized(pretty: true))
        } else {
            context.outRaw(FindingsCommand.text(report, waiting: waiting))
        }
    }

    // MARK: Text

    /// The cards of surviving findings (or checks), one blank line before each.
    static func findingLines(_ findings: [Finding]) -> [String] {
        var lines: [String] = []
        for f in findings {
            lines.append("")
            lines.append("\(f.tier.name)  \(f.sentence)")
            let a = f.association
            var detail =
                "    \(f.feature.label) × \(Wording.label(f.outcome)), lag \(f.lag.rawValue): "
                + "r = \(signed(a.r)), "
                + "95% CI \(signed(a.ciLow)) to \(signed(a.ciHigh)), \(a.n) days, q = \(qText(f.q))"
            if !f.collapsed.isEmpty {
                detail +=
                    "; strongest of "
                    + ([f.outcome] + f.collapsed).map { Wording.label($0) }.joined(separator: ", ")
            }
            lines.append(detail)
            if let note = f.tierNote {
                lines.append("    not \(Tier(rawValue: f.tier.rawValue + 1)!.name) yet: \(note)")
            }
            if let weekday = f.weekday { lines.append("    day of the week: \(weekday.sentence)") }
        }
        return lines
    }

    static func text(_ report: ScanReport, waiting deviationWait: [Pending]) -> String {
        var lines = [report.headline]
        lines.append(
            "Family: every habit and input against every morning metric (lag 0 and 1), a shift test per metric; "
                + "BH-FDR q <= \(Formatting.fixed(Scan.fdrLevel, digits: 2)), "
                + "|r| >= \(Formatting.fixed(Scan.minimumEffect, digits: 2))."
        )
        lines += findingLines(report.findings)
        for s in report.shifts where s.survived {
            lines.append("")
            lines.append("\(s.tier.name)  \(s.sentence)")
            let digits = s.outcome == .subjective ? 2 : 1
            lines.append(
                "    \(Wording.label(s.outcome)) level: \(Formatting.fixed(s.result.before, digits: digits)) "
                    + "before, \(Formatting.fixed(s.result.after, digits: digits)) since; r = \(signed(s.result.r)), "
                    + "\(s.result.n) days, q = \(qText(s.q))")
        }
        if report.checksTested > 0 {
            lines.append("")
            lines.append(report.checksLine + " (their own family, so they do not loosen the check above).")
            lines += findingLines(report.checks)
        }
        let waiting = notEnoughData(report, deviationWait: deviationWait)
        if !waiting.isEmpty {
            lines.append("")
            lines.append("Not enough data yet:")
            for w in waiting { lines.append("  " + w) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per analysis still waiting, each with how many more days it needs.
    static func notEnoughData(_ report: ScanReport, deviationWait: [Pending]) -> [String] {
        var lines: [String] = []
        for p in deviationWait {
            lines.append(
                "\(p.subject) against baseline (T0): \(p.have) of \(p.need) days in the last 60; "
                    + "\(p.moreDays) more \(p.moreDays == 1 ? "day" : "days")")
        }
        for (analysis, what, need, values) in [
            (Pending.Analysis.changePoint, "shifts in level", Floors.changePoint, "a value"),
            (.sameMorningAssociation, "lag 0 associations", Floors.correlation, "both values"),
            (.laggedAssociation, "lag 1 associations", Floors.laggedAssociation, "both values"),
        ] {
            let group = report.pending.filter { $0.analysis == analysis }
            guard let closest = group.min(by: { $0.moreDays < $1.moreDays }) else { continue }
            lines.append(
                "\(what): \(group.count) \(group.count == 1 ? "test waits" : "tests wait") for \(need) days with "
                    + "\(values); the closest has \(closest.have): \(closest.moreDays) more days")
        }
        // One line per habit: the test with the most paired days speaks for it.
        var habits: [String: Pending] = [:]
        for p in report.pending where p.analysis == .habitTagging {
            guard case .habit(let name) = p.feature else { continue }
            if let seen = habits[name], seen.have >= p.have { continue }
            habits[name] = p
        }
        for name in habits.keys.sorted() { lines.append(habits[name]!.sentence) }
        if report.days < Floors.laggedAssociation {
            let more = Floors.laggedAssociation - report.days
            lines.append("order in time (T3): judged from \(Floors.laggedAssociation) days; at least \(more) more days")
        }
        return lines
    }

    static func signed(_ v: Double) -> String { (v >= 0 ? "+" : "") + Formatting.fixed(v, digits: 2) }

    static func qText(_ q: Double) -> String { q < 0.001 ? "<0.001" : Formatting.fixed(q, digits: 3) }

    // MARK: JSON

    static func json(_ report: ScanReport, waiting deviationWait: [Pending], resamples: Int) -> JSONValue {
        .object([
            ("headline", .string(report.headline)),
            ("tested", JSONValue(report.tested)),
            ("survived", JSONValue(report.survived)),
            ("days", JSONValue(report.days)),
            ("fdr_level", .number(Scan.fdrLevel)),
            ("minimum_effect", .number(Scan.minimumEffect)),
            ("resamples", JSONValue(resamples)),
            ("findings", .array(report.findings.map(findingJSON))),
            ("checks_tested", JSONValue(report.checksTested)),
            ("checks", .array(report.checks.map(findingJSON))),
            ("shifts", .array(report.shifts.filter(\.survived).map(shiftJSON))),
            ("family", .array(report.family.map(testJSON))),
            ("shift_family", .array(report.shifts.map(shiftJSON))),
            ("not_enough_data", .array((deviationWait + report.pending).map(pendingJSON))),
        ])
    }

    static func findingJSON(_ f: Finding) -> JSONValue {
        let a = f.association
        return .object([
            ("tier", .string(f.tier.name)),
            ("sentence", .string(f.sentence)),
            ("feature", .string(f.feature.key)),
            ("outcome", .string(f.outcome.rawValue)),
            ("lag", JSONValue(f.lag.rawValue)),
            ("r", .number(a.r)),
            ("days", JSONValue(a.n)),
            ("p", .number(a.p)),
            ("q", .number(f.q)),
            ("ci", .array([.number(a.ciLow), .number(a.ciHigh)])),
            ("tagged_days", JSONValue(f.taggedDays)),
            ("effective_days", .number(a.effectiveN)),
            ("block_lengths", .array([JSONValue(a.blockX), JSONValue(a.blockY)])),
            ("near_tautological", JSONValue(f.nearTautological)),
            ("collapsed", .array(f.collapsed.map { .string($0.rawValue) })),
            ("tier_note", JSONValue(f.tierNote)),
            ("weekday_r", f.weekday.map { .number($0.withinDays) } ?? .null),
            ("explained_by_weekday", f.weekday.map { .bool($0.explained) } ?? .null),
        ])
    }

    static func shiftJSON(_ s: Shift) -> JSONValue {
        .object([
            ("tier", .string(s.tier.name)),
            ("sentence", .string(s.sentence)),
            ("outcome", .string(s.outcome.rawValue)),
            ("since", .string(s.since.description)),
            ("before", .number(s.result.before)),
            ("after", .number(s.result.after)),
            ("days_before", JSONValue(s.daysBefore)),
            ("days_after", JSONValue(s.daysAfter)),
            ("r", .number(s.result.r)),
            ("p", .number(s.result.p)),
            ("q", .number(s.q)),
            ("survived", .bool(s.survived)),
        ])
    }

    static func testJSON(_ t: TestedPair) -> JSONValue {
        .object([
            ("feature", .string(t.feature.key)),
            ("outcome", .string(t.outcome.rawValue)),
            ("lag", JSONValue(t.lag.rawValue)),
            ("r", .number(t.association.r)),
            ("days", JSONValue(t.association.n)),
            ("p", .number(t.association.p)),
            ("q", .number(t.q)),
            ("survived", .bool(t.survived)),
            ("family", .string(t.isCheck ? "checks" : "questions")),
        ])
    }

    static func pendingJSON(_ p: Pending) -> JSONValue {
        .object([
            ("analysis", .string(p.analysis.rawValue)),
            ("subject", .string(p.subject)),
            ("have", JSONValue(p.have)),
            ("need", JSONValue(p.need)),
            ("more_days", JSONValue(p.moreDays)),
            ("sentence", .string(p.sentence)),
        ])
    }
}

import RecoveryCore
import Testing

@testable import Insights

@Suite("Findings scan (DESIGN §6; Health Engine: family per scan, tiers, floors, missing is missing)")
struct ScanTests {
    @Test("planted effect: alcohol lowering the next morning's rMSSD is found at n = 120 (10 seeded people)")
    func plantedAlcoholEffectIsFound() {
        var found = 0
        var tiers: [Tier] = []
        for seed in 1...10 {
            let days = SyntheticPerson(seed: UInt64(seed)).plantedRecords(count: 120)
            let report = Scan(resamples: 400, seed: UInt64(seed)).run(days: days)
            if let f = report.findings.first(where: {
                $0.feature == .habit("alcohol") && $0.outcome == .rmssd && $0.lag == .zero
            }) {
                #expect(f.association.r < 0, "alcohol should lower rMSSD, r = \(f.association.r)")
                #expect(f.q <= Scan.fdrLevel && abs(f.association.r) >= Scan.minimumEffect)
                found += 1
                tiers.append(f.tier)
            }
        }
        // rMSSD falls 20 % on 20 % of days: r ≈ −0.4, Bartlett sd ≈ 0.09 at n = 120, so it should survive in
        // (nearly) every person; allow one miss.
        #expect(found >= 9, "found in \(found) of 10")
        #expect(tiers.filter { $0 >= .t2 }.count >= 7, "tiers \(tiers.map(\.name))")
    }

    @Test("no planted effect: null associations survive no more often than the FDR level promises (30 people)")
    func nullFamiliesRespectTheFDR() {
        var shares: [Double] = []
        var nullSurvivors = 0
        var nullTests = 0
        for seed in 1...30 {
            let days = SyntheticPerson.unrelatedRecords(seed: UInt64(seed), count: 120)
            let report = Scan(resamples: 300, seed: UInt64(seed)).run(days: days)
            // Everything is a true null except a score against the mean of the scores it is part of, and one
            // measurement against another.
            // No shift is planted either: every shift test is a null too.
            let isNull: (TestedPair) -> Bool = { t in
                // The measurements are one person's, so the metrics against each other are real associations,
                // except against the subjective mean, which comes from the other person's questionnaires.
                if case .metric(let m) = t.feature { return (m == .subjective) != (t.outcome == .subjective) }
                return !(t.outcome == .subjective && !t.feature.isBinary)
            }
            nullTests += report.family.filter(isNull).count + report.shifts.count
            let v = report.family.filter { isNull($0) && $0.survived }.count + report.shifts.filter(\.survived).count
            let r = report.family.filter(\.survived).count + report.shifts.filter(\.survived).count
            nullSurvivors += v
            shares.append(r > 0 ? Double(v) / Double(r) : 0)
        }
        let fdr = shares.reduce(0, +) / Double(shares.count)
        let sd = (shares.map { ($0 - fdr) * ($0 - fdr) }.reduce(0, +) / Double(shares.count - 1)).squareRoot()
        let se = sd / Double(shares.count).squareRoot()
        // BH promises E[V/R] ≤ q·m₀/m ≤ 0.10 (Benjamini & Hochberg 1995, Theorem 1). The tolerance is the Monte
        // Carlo error of the mean share over these runs: two standard errors of the observed shares.
        #expect(
            fdr <= Scan.fdrLevel + 2 * se,
            "mean false share \(fdr) ± \(se); \(nullSurvivors)/\(nullTests) nulls survived")
        #expect(nullTests > 1000)
    }

    @Test("missing is missing: a day without rMSSD leaves that test, it is never filled")
    func missingDaysLeaveTheTest() throws {
        var days = SyntheticPerson(seed: 3).plantedRecords(count: 120)
        for i in stride(from: 0, to: 120, by: 4) { days[i].measurement = nil }  // 30 mornings not measured
        for i in stride(from: 1, to: 120, by: 10) { days[i].questionnaire = nil }  // 12 questionnaires missing
        let report = Scan(resamples: 200, seed: 1).run(days: days)
        let t = try #require(
            report.family.first { $0.feature == .habit("alcohol") && $0.outcome == .rmssd && $0.lag == .zero })
        // Both values exist on 120 − 30 − 12 days (the two gaps never fall on the same day: 4k vs 10k+1).
        #expect(t.association.n == 78)
        let caffeine = report.family.filter { $0.feature == .caffeineAmount }
        #expect(caffeine.isEmpty)  // never entered → never tested (not treated as 0 mg)
    }

    @Test("not enough data yet: 40 days test nothing and say how many more days each analysis needs")
    func notEnoughDataYet() {
        let report = Scan(resamples: 200, seed: 1).run(days: SyntheticPerson(seed: 4).plantedRecords(count: 40))
        #expect(report.tested == 0)
        #expect(report.headline == "0 tested, 0 survived")
        let sameMorning = report.pending.filter { $0.analysis == .sameMorningAssociation }
        let lagged = report.pending.filter { $0.analysis == .laggedAssociation }
        #expect(sameMorning.map(\.moreDays).min() == 20)  // 40 of 60 paired days
        #expect(lagged.map(\.moreDays).min() == 51)  // lag 1 pairs 39 days; 90 needed
    }

    @Test("a habit tagged on fewer than 8 days is not tested, and the reason says so")
    func habitNeedsEightDaysEachSide() {
        var days = SyntheticPerson(seed: 5, effects: HabitEffect.withoutEffects).plantedRecords(count: 100)
        // Tag "sauna" on 5 mornings only.
        for i in [3, 17, 40, 66, 90] {
            days[i].questionnaire!.habits.append("sauna")
        }
        let report = Scan(resamples: 200, seed: 1).run(days: days)
        #expect(!report.family.contains { $0.feature == .habit("sauna") })
        #expect(
            report.pending.contains {
                $0.analysis == .habitTagging && $0.subject.hasPrefix("sauna") && $0.have == 5 && $0.moreDays == 3
            })
    }

    @Test("an item against the subjective mean is flagged near-tautological, and is a check, not a finding")
    func itemAgainstMeanIsFlagged() throws {
        let report = Scan(resamples: 300, seed: 2).run(days: SyntheticPerson(seed: 6).plantedRecords(count: 120))
        #expect(!report.findings.contains { $0.nearTautological != nil })
        let f = try #require(
            report.checks.first { $0.feature == .score(.fatigue) && $0.outcome == .subjective && $0.lag == .zero })
        #expect(f.nearTautological == "the subjective mean includes the fatigue score")
        #expect(f.sentence.hasSuffix("Near-tautological: the subjective mean includes the fatigue score."))
        #expect(f.tier == .t2)  // same morning: no order in time, so never T3
    }

    @Test("lying HR against the gaps is tested on the same morning and flagged near-tautological")
    func gapAgainstLyingHRIsFlagged() throws {
        let report = Scan(resamples: 300, seed: 2).run(days: SyntheticPerson(seed: 6).plantedRecords(count: 120))
        let tested = report.family.filter { $0.feature == .metric(.lyingHR) }
        // Each unordered pair once, the earlier metric as the feature (rMSSD × lying HR is under rMSSD).
        #expect(Set(tested.map(\.outcome)) == [.gapPeak, .gapAvg, .subjective])
        #expect(report.family.contains { $0.feature == .metric(.rmssd) && $0.outcome == .lyingHR })
        #expect(tested.allSatisfy { $0.lag == .zero })
        // The synthetic person's lying HR and gaps both rise when recovery is low: the pair survives, once for the
        // two related gaps, and says it is coupled by definition.
        let f = try #require(
            report.checks.first { $0.feature == .metric(.lyingHR) && [.gapAvg, .gapPeak].contains($0.outcome) })
        let reason = try #require(f.nearTautological)
        #expect(reason == DefinitionalCoupling.reason(.lyingHR, f.outcome))
        #expect(f.sentence.hasPrefix("A higher lying HR and "))
        #expect(f.sentence.hasSuffix("Near-tautological: \(reason)."))
        #expect(f.tier <= .t2)  // same morning: no order in time
        #expect(report.checks.filter { $0.feature == .metric(.lyingHR) && $0.outcome != .subjective }.count == 1)
    }

    @Test("gapAvg and gapPeak are reported once, as the stronger of the two")
    func relatedOutcomesCollapse() {
        let report = Scan(resamples: 300, seed: 2).run(days: SyntheticPerson(seed: 7).plantedRecords(count: 150))
        var seen: Set<String> = []
        for f in report.findings where f.outcome == .gapAvg || f.outcome == .gapPeak {
            let key = "\(f.feature.key)/\(f.lag.rawValue)"
            #expect(!seen.contains(key), "both gaps reported for \(key)")
            seen.insert(key)
        }
        // Whenever both gaps survived, the weaker is named as collapsed into the stronger.
        for f in report.findings where !f.collapsed.isEmpty {
            let other = report.family.first {
                $0.feature == f.feature && $0.lag == f.lag && $0.outcome == f.collapsed[0]
            }
            #expect(abs(other!.association.r) <= abs(f.association.r))
        }
        #expect(report.survived == report.findings.count + report.shifts.filter(\.survived).count)
        #expect(report.survived <= report.family.filter(\.survived).count)
    }

    @Test("the questions' family is BH over the habit and input tests and the shifts alone; the headline counts them")
    func checksHaveTheirOwnFamily() throws {
        let report = Scan(resamples: 300, seed: 2).run(days: SyntheticPerson(seed: 6).plantedRecords(count: 120))
        let questions = report.family.filter { !$0.isCheck }
        let checks = report.family.filter(\.isCheck)
        // Every definitional pair and every metric-against-metric pair is a check, nothing else is.
        #expect(
            checks.allSatisfy { t in
                if case .metric = t.feature { return true }
                return DefinitionalCoupling.reason(feature: t.feature, outcome: t.outcome, lag: t.lag) != nil
            })
        #expect(checks.contains { $0.feature == .score(.fatigue) && $0.outcome == .subjective && $0.lag == .one })
        #expect(checks.filter(\.survived).count >= 5, "the checks are near-sure rejections here")
        // Had the checks been in the same family, their tiny p-values would have changed the questions' q.
        let expected = benjaminiHochbergQValues(questions.map(\.association.p) + report.shifts.map(\.result.p))
        for (t, q) in zip(questions, expected) { #expect(abs(t.q - q) < 1e-12, "\(t.feature.key) × \(t.outcome)") }
        for (s, q) in zip(report.shifts, expected[questions.count...]) { #expect(abs(s.q - q) < 1e-12) }
        #expect(report.tested == questions.count + report.shifts.count)
        #expect(report.checksTested == checks.count)
        #expect(report.headline == "\(report.tested) tested, \(report.survived) survived")
    }

    @Test("a score against the next morning's subjective mean stops at T2, however strong: related by definition")
    func nearTautologicalNeverReachesT3() throws {
        // Fatigue that carries over from day to day (and the other items with it) makes fatigue today predict
        // tomorrow's subjective mean, which contains tomorrow's fatigue: order in time holds, and it still says
        // nothing about a cause.
        var days = SyntheticPerson(seed: 6).plantedRecords(count: 150)
        var rng = SeededGenerator(seed: 14)
        var level = 4.0
        for i in days.indices {
            level = 4 + 0.9 * (level - 4) + 0.8 * rng.gaussian()
            let score = Int(max(1, min(7, level.rounded())))
            days[i].questionnaire!.scores = SubjectiveScores([Int](repeating: score, count: 5))!
        }
        let report = Scan(resamples: 300, seed: 3).run(days: days)
        let f = try #require(
            report.checks.first { $0.feature == .score(.fatigue) && $0.outcome == .subjective && $0.lag == .one })
        #expect(f.nearTautological != nil)
        #expect(f.tier == .t2, "tier \(f.tier.name): \(f.tierNote ?? "-")")
        #expect(f.tierNote == "related by definition, so which comes first in time cannot show a cause")
        #expect(report.checks.allSatisfy { $0.nearTautological == nil || $0.tier <= .t2 })
    }

    @Test("a habit that only follows the week, against rMSSD that only follows the week, is explained by the day")
    func dayOfWeekExplainsAWeeklyPair() throws {
        // No effect at all: the habit is mostly a weekend one, and rMSSD is lower on weekend mornings for
        // reasons of its own. The raw association survives; comparing like days, it is gone.
        var days = SyntheticPerson(seed: 15, effects: HabitEffect.withoutEffects).plantedRecords(count: 180)
        var rng = SeededGenerator(seed: 15)
        for i in days.indices {
            let weekend = [2, 3].contains(((days[i].date.dayNumber % 7) + 7) % 7)  // 1970-01-01 was a Thursday
            if rng.unit() < (weekend ? 0.8 : 0.05) { days[i].questionnaire!.habits.append("late-night") }
            if weekend { days[i].measurement!.hrv!.rmssdMs! *= 0.7 }
        }
        let report = Scan(resamples: 400, seed: 4).run(days: days)
        let f = try #require(
            report.findings.first { $0.feature == .habit("late-night") && $0.outcome == .rmssd && $0.lag == .zero })
        let weekday = try #require(f.weekday)
        #expect(weekday.explained, "r within days \(weekday.withinDays) against \(weekday.overall)")
        #expect(abs(weekday.withinDays) < 0.15)
        #expect(weekday.sentence.hasPrefix("explained by the day of the week"))
        #expect(f.tier < .t3)
    }

    @Test("a planted habit effect that has nothing to do with the week holds within each day of the week")
    func plantedEffectHoldsWithinDays() throws {
        let days = SyntheticPerson(seed: 3).plantedRecords(count: 150)
        let report = Scan(resamples: 400, seed: 3).run(days: days)
        let f = try #require(
            report.findings.first { $0.feature == .habit("alcohol") && $0.outcome == .rmssd && $0.lag == .zero })
        let weekday = try #require(f.weekday)
        #expect(!weekday.explained)
        #expect(abs(weekday.withinDays - f.association.r) < 0.1, "\(weekday.withinDays) vs \(f.association.r)")
        #expect(weekday.sentence.hasPrefix("holds within each day of the week"))
    }

    @Test("lag 1 means the feature's morning against the next morning's outcome")
    func lagOneIsTheNextMorning() throws {
        // A habit that lowers rMSSD two mornings after the evening it describes (tagged on d, effect on d+1).
        var days = SyntheticPerson(seed: 8, effects: HabitEffect.withoutEffects).plantedRecords(count: 150)
        var rng = SeededGenerator(seed: 8)
        var tagged: Set<Int> = []
        for i in 0..<150 where rng.unit() < 0.25 {
            days[i].questionnaire!.habits.append("night-shift")
            tagged.insert(i)
        }
        for i in tagged where i + 1 < 150 {
            days[i + 1].measurement!.hrv!.rmssdMs! *= 0.7
        }
        let report = Scan(resamples: 400, seed: 3).run(days: days)
        let lag1 = try #require(
            report.family.first { $0.feature == .habit("night-shift") && $0.outcome == .rmssd && $0.lag == .one })
        let lag0 = try #require(
            report.family.first { $0.feature == .habit("night-shift") && $0.outcome == .rmssd && $0.lag == .zero })
        #expect(lag1.survived && lag1.association.r < -0.3)
        #expect(!lag0.survived)
        let f = try #require(report.findings.first { $0.feature == .habit("night-shift") && $0.lag == .one })
        #expect(f.sentence.contains("two mornings later"))
    }

    @Test("a habit that only rides along with a planted one does not reach T3")
    func coOccurringHabitIsNamedAsConfounder() throws {
        // "wine-with-dinner" is tagged on exactly the alcohol days plus a few: any effect it shows is alcohol's.
        var days = SyntheticPerson(seed: 9).plantedRecords(count: 150)
        for i in days.indices {
            let q = days[i].questionnaire!
            if q.habits.contains("alcohol") || i % 29 == 0 { days[i].questionnaire!.habits.append("wine-with-dinner") }
        }
        let report = Scan(resamples: 400, seed: 4).run(days: days)
        let f = try #require(
            report.findings.first {
                $0.feature == .habit("wine-with-dinner") && $0.outcome == .rmssd && $0.lag == .zero
            })
        #expect(f.tier < .t3, "tier \(f.tier.name), note \(f.tierNote ?? "-")")
        if f.tier == .t2 { #expect(f.tierNote == "alcohol often comes with it and explains it away") }
    }

    @Test("the same days and seed give the same report, serial or with a parallel runner")
    func deterministic() {
        let days = SyntheticPerson(seed: 10).plantedRecords(count: 100)
        let a = Scan(resamples: 300, seed: 5).run(days: days)
        let shuffledRunner = ParallelFor { count, body in
            for i in (0..<count).reversed() { body(i) }
        }
        let b = Scan(resamples: 300, seed: 5).run(days: days.reversed(), parallel: shuffledRunner)
        #expect(a == b)
    }
}

@Suite("Tier wording (Health Engine: a deterministic template per tier)")
struct WordingTests {
    func finding(_ feature: Feature, _ tier: Tier, r: Double, tagged: Int? = nil) -> Finding {
        let a = Association(
            r: r, n: 118, p: 0.001, ciLow: r - 0.1, ciHigh: r + 0.1, tauX: 1, tauY: 2, blockX: 2, blockY: 10,
            effectiveN: 80, widening: 1.1, resamples: 2000)
        return Finding(
            feature: feature, outcome: .rmssd, lag: .zero, association: a, q: 0.01, tier: tier, taggedDays: tagged,
            nearTautological: nil, collapsed: [], halves: [], precedence: nil, tierNote: nil)
    }

    @Test("each tier reads its fixed template")
    func templates() {
        #expect(
            finding(.habit("alcohol"), .t1, r: -0.4, tagged: 24).sentence
                == "Alcohol and lower rMSSD the next morning have co-occurred 24 times.")
        #expect(
            finding(.caffeineAmount, .t1, r: 0.3).sentence
                == "More caffeine and higher rMSSD the next morning have co-occurred over 118 days.")
        #expect(
            finding(.habit("alcohol"), .t2, r: -0.4, tagged: 24).sentence
                == "Alcohol and lower rMSSD the next morning tend to move together.")
        #expect(
            finding(.lastMealTime, .t3, r: -0.35).sentence
                == "A later last meal may be contributing to lower rMSSD the next morning.")
    }
}

@Suite("Definitional coupling (Health Engine: pairs coupled by definition are flagged, not hidden)")
struct DefinitionalCouplingTests {
    @Test("a score against the subjective mean, and each gap against lying HR, are coupled by definition")
    func table() {
        #expect(
            DefinitionalCoupling.reason(feature: .score(.mood), outcome: .subjective)
                == "the subjective mean includes the mood score")
        #expect(
            DefinitionalCoupling.reason(feature: .score(.mood), outcome: .subjective, lag: .one)
                == "the subjective mean includes the mood score, which carries over from day to day")
        #expect(DefinitionalCoupling.reason(feature: .score(.mood), outcome: .rmssd) == nil)
        #expect(DefinitionalCoupling.reason(feature: .habit("alcohol"), outcome: .subjective) == nil)
        #expect(DefinitionalCoupling.reason(.gapAvg, .lyingHR) == "gap avg is standing HR minus lying HR")
        #expect(DefinitionalCoupling.reason(.lyingHR, .gapPeak) == "gap peak is peak standing HR minus lying HR")
        #expect(DefinitionalCoupling.reason(.rmssd, .lyingHR) == nil)
        #expect(DefinitionalCoupling.relatedGroup(.gapAvg) == DefinitionalCoupling.relatedGroup(.gapPeak))
        #expect(DefinitionalCoupling.relatedGroup(.rmssd) == nil)
    }

    @Test("clock times after midnight count as late evening: 00:30 is later than 23:00")
    func smallHours() {
        #expect(Feature.clockHours(MinuteOfDay(hour: 0, minute: 30)!) == 24.5)
        #expect(Feature.clockHours(MinuteOfDay(hour: 23, minute: 0)!) == 23)
        #expect(Feature.clockHours(MinuteOfDay(hour: 5, minute: 0)!) == 5)
    }
}

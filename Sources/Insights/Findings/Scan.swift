import RecoveryCore

/// The findings scan (DESIGN §6, after the Health Engine README): every feature × outcome × lag with enough
/// days is one test of one family, and so is each outcome's test for a lasting shift in level (change point,
/// from 45 values); BH-FDR at q = 0.10 over that whole family; |r| ≥ 0.25; then tiers.
///
/// Pairing: a test keeps exactly the days on which both its values exist (missing is missing: a day
/// without the feature or the outcome is out of that test, never filled). The engine takes those days in
/// date order and knows their dates, so two values either side of a gap are not counted as neighbours when
/// the autocorrelation correction is set (`AssociationTest`).
public struct Scan: Sendable {
    /// Health Engine: "|r| ≥ 0.25 floor".
    public static let minimumEffect = 0.25
    /// Health Engine: "BH-FDR at q = 0.10".
    public static let fdrLevel = 0.10
    /// Each half must reach this on its own for T2.
    public static let halfAlpha = 0.05

    public var resamples: Int
    public var seed: UInt64
    /// The configured habit names; habits seen in the questionnaires are added to them.
    public var habits: [String]
    /// The association test; only comparisons (showing what an uncorrected test would claim) change it.
    public var method: AssociationTest.Method = .calibrated

    public init(resamples: Int = 2000, seed: UInt64 = 0x5EED_F1ED, habits: [String] = Questionnaire.starterHabits) {
        self.resamples = resamples
        self.seed = seed
        self.habits = habits
    }

    /// Scans the days (any order; a date given twice counts once, the last wins).
    public func run(days: [DayRecord], parallel: ParallelFor = .serial) -> ScanReport {
        let table = DayIndex(days)
        var habitNames = Set(habits)
        for d in table.byDay.values { habitNames.formUnion(d.questionnaire?.habits ?? []) }
        let features: [Feature] =
            habitNames.sorted().map { .habit($0) } + [.caffeineAmount, .caffeineTime, .lastMealTime]
            + SubjectiveItem.allCases.map { .score($0) }

        var candidates: [Candidate] = []
        var pending: [Pending] = []
        // Every feature against every outcome at both lags, and the morning metrics against each other on the same
        // morning (Health Engine: "two-variable correlation at 60"; this is where pairs coupled by definition,
        // such as gap avg and lying HR, are tested and flagged).
        var plan: [(feature: Feature, outcome: Outcome, lag: Lag)] = []
        for feature in features {
            for outcome in Outcome.allCases {
                for lag in Lag.allCases { plan.append((feature, outcome, lag)) }
            }
        }
        for (i, a) in Outcome.allCases.enumerated() {
            for b in Outcome.allCases.dropFirst(i + 1) { plan.append((.metric(a), b, .zero)) }
        }
        for (feature, outcome, lag) in plan {
            let pairs = table.pairs(feature: feature, outcome: outcome, lag: lag)
            let subject = "\(feature.label) × \(outcome.label), lag \(lag.rawValue)"
            let need = Floors.pairedDays(for: lag)
            if pairs.x.count < need {
                let analysis: Pending.Analysis = lag == .zero ? .sameMorningAssociation : .laggedAssociation
                pending.append(
                    Pending(
                        analysis: analysis, subject: subject, have: pairs.x.count, need: need,
                        moreDays: need - pairs.x.count,
                        sentence: "\(subject): \(pairs.x.count) of \(need) days with both values",
                        feature: feature, lag: lag))
                continue
            }
            if feature.isBinary {
                let tagged = pairs.x.filter { $0 == 1 }.count
                let untagged = pairs.x.count - tagged
                if min(tagged, untagged) < Floors.habitDaysEachSide {
                    let side = tagged < Floors.habitDaysEachSide ? "tagged" : "untagged"
                    pending.append(
                        Pending(
                            analysis: .habitTagging, subject: subject, have: min(tagged, untagged),
                            need: Floors.habitDaysEachSide,
                            moreDays: Floors.habitDaysEachSide - min(tagged, untagged),
                            sentence:
                                "\(feature.label): \(side) on \(min(tagged, untagged)) of \(pairs.x.count) "
                                + "days; a habit is tested from \(Floors.habitDaysEachSide) tagged and "
                                + "\(Floors.habitDaysEachSide) untagged days: at least "
                                + "\(Floors.habitDaysEachSide - min(tagged, untagged)) more \(side) days",
                            feature: feature, lag: lag))
                    continue
                }
            }
            candidates.append(Candidate(feature: feature, outcome: outcome, lag: lag, pairs: pairs))
        }

        // Change points: each outcome's own series, from Floors.changePoint values.
        var shiftSeries: [(outcome: Outcome, values: [Double], days: [Int])] = []
        for outcome in Outcome.allCases {
            let series = table.series(outcome)
            if series.values.count < Floors.changePoint {
                let have = series.values.count
                pending.append(
                    Pending(
                        analysis: .changePoint, subject: outcome.label, have: have, need: Floors.changePoint,
                        moreDays: Floors.changePoint - have,
                        sentence: "\(outcome.label) shift in level: \(have) of \(Floors.changePoint) days with a value")
                )
            } else {
                shiftSeries.append((outcome, series.values, series.days))
            }
        }

        let test = AssociationTest(resamples: resamples, method: method)
        let seed = self.seed
        let results = Scan.testFamily(
            candidates.map { ($0.pairs.x, $0.pairs.y) }, days: candidates.map(\.pairs.days), test: test,
            seed: seed, parallel: parallel)
        var tested: [(Candidate, Association)] = []
        for (c, a) in zip(candidates, results) {
            if let a {
                tested.append((c, a))
            } else {
                let subject = "\(c.feature.label) × \(c.outcome.label), lag \(c.lag.rawValue)"
                pending.append(
                    Pending(
                        analysis: .noVariation, subject: subject, have: c.pairs.x.count, need: c.pairs.x.count,
                        moreDays: 0, sentence: "\(subject): one side never varies, so there is nothing to correlate",
                        feature: c.feature, lag: c.lag))
            }
        }
        let shiftTest = ShiftTest(resamples: resamples)
        let series = shiftSeries
        let shiftResults: [MeanShift?] = parallel.map(series.count) { i in
            shiftTest.run(series[i].values, seed: SeededGenerator.derivedSeed(seed ^ 0x5348_4946, stream: i))
        }
        var shiftsTested: [(outcome: Outcome, result: MeanShift, days: [Int])] = []
        for (s, result) in zip(shiftSeries, shiftResults) {
            guard let result else { continue }  // a constant series has no level to shift
            shiftsTested.append((s.outcome, result, s.days))
        }

        // Two families (DESIGN §6, "families follow the questions"). The questions: every habit and input against
        // every morning metric, and each metric's shift test; their findings are what a person acts on, and the
        // headline counts them. The checks: pairs related by definition (a score and the subjective mean that
        // contains it, a gap and lying HR) and the morning metrics against each other. A check is close to a
        // sure rejection; inside the questions' family its tiny p-value would lower BH's bar for every other
        // test (BH's threshold grows with the rank), so it gets its own family.
        let isCheck = tested.map { Scan.isCheck($0.0.feature, $0.0.outcome, $0.0.lag) }
        let questionIndices = tested.indices.filter { !isCheck[$0] }
        let checkIndices = tested.indices.filter { isCheck[$0] }
        let questionQ = benjaminiHochbergQValues(
            questionIndices.map { tested[$0].1.p } + shiftsTested.map(\.result.p))
        let checkQ = benjaminiHochbergQValues(checkIndices.map { tested[$0].1.p })
        var familyQ = [Double](repeating: 1, count: tested.count)
        for (k, i) in questionIndices.enumerated() { familyQ[i] = questionQ[k] }
        for (k, i) in checkIndices.enumerated() { familyQ[i] = checkQ[k] }
        let q = familyQ
        let shifts: [Shift] = zip(shiftsTested, questionQ[questionIndices.count...]).map { s, q in
            Shift(
                outcome: s.outcome, result: s.result, since: LocalDate(dayNumber: s.days[s.result.split]),
                daysBefore: s.result.split, daysAfter: s.result.n - s.result.split, q: q,
                survived: q <= Scan.fdrLevel && abs(s.result.r) >= Scan.minimumEffect)
        }
        var family: [TestedPair] = []
        var survivors: [Int] = []
        for (i, (c, a)) in tested.enumerated() {
            let survived = q[i] <= Scan.fdrLevel && abs(a.r) >= Scan.minimumEffect
            family.append(
                TestedPair(
                    feature: c.feature, outcome: c.outcome, lag: c.lag, association: a, q: q[i], survived: survived,
                    isCheck: isCheck[i]))
            if survived { survivors.append(i) }
        }

        // Tiers for the survivors (halves and precedence only for them: they cost extra resamples).
        let habitFeatures = features.filter(\.isBinary)
        let survivorIndices = survivors
        let testedPairs = tested
        let graded: [Finding] = parallel.map(survivorIndices.count) { k in
            let i = survivorIndices[k]
            let (c, a) = testedPairs[i]
            return grade(
                candidate: c, association: a, q: q[i], table: table, habitFeatures: habitFeatures, test: test,
                seed: SeededGenerator.derivedSeed(seed ^ 0x7172_6173, stream: i))
        }
        let findings = Scan.collapseRelated(graded.filter { !Scan.isCheck($0.feature, $0.outcome, $0.lag) })
        let checks = Scan.collapseRelated(graded.filter { Scan.isCheck($0.feature, $0.outcome, $0.lag) })
        return ScanReport(
            tested: questionIndices.count + shifts.count, findings: findings, family: family, shifts: shifts,
            pending: pending, days: table.byDay.count, checksTested: checkIndices.count, checks: checks)
    }

    /// True for a test in the checks' family: a pair related by definition, or two morning metrics (see `run`).
    public static func isCheck(_ feature: Feature, _ outcome: Outcome, _ lag: Lag) -> Bool {
        if case .metric = feature { return true }
        return DefinitionalCoupling.reason(feature: feature, outcome: outcome, lag: lag) != nil
    }

    /// The family step alone: one engine test per pair of series, test i seeded from stream i of `seed`, spread
    /// over the caller's cores. (Exposed for the benchmark, which times exactly this step.)
    public static func testFamily(
        _ pairs: [(x: [Double], y: [Double])], days: [[Int]]? = nil, test: AssociationTest, seed: UInt64,
        parallel: ParallelFor
    ) -> [Association?] {
        parallel.map(pairs.count) { i in
            test.run(x: pairs[i].x, y: pairs[i].y, days: days?[i], seed: SeededGenerator.derivedSeed(seed, stream: i))
        }
    }

    func grade(
        candidate c: Candidate, association a: Association, q: Double, table: DayIndex, habitFeatures: [Feature],
        test: AssociationTest, seed: UInt64
    ) -> Finding {
        var finding = Finding(
            feature: c.feature, outcome: c.outcome, lag: c.lag, association: a, q: q, tier: .t1,
            taggedDays: c.feature.isBinary ? c.pairs.x.filter { $0 == 1 }.count : nil,
            nearTautological: DefinitionalCoupling.reason(feature: c.feature, outcome: c.outcome, lag: c.lag),
            collapsed: [],
            halves: [], precedence: nil, tierNote: nil)
        finding.weekday = WeekdayCheck.run(x: c.pairs.x, y: c.pairs.y, days: c.pairs.days)

        // T2: same sign and p < 0.05 in each of two non-overlapping halves (first and second half of the days).
        let half = c.pairs.x.count / 2
        let p = c.pairs
        let first = test.run(x: Array(p.x[..<half]), y: Array(p.y[..<half]), days: Array(p.days[..<half]), seed: seed)
        let second = test.run(
            x: Array(p.x[half...]), y: Array(p.y[half...]), days: Array(p.days[half...]), seed: seed &+ 1)
        finding.halves = [first, second]
        let stable = [first, second].allSatisfy { h in
            guard let h else { return false }
            return h.p < Scan.halfAlpha && (h.r < 0) == (a.r < 0)
        }
        guard stable else {
            finding.tierNote = "not yet stable: it does not hold in both halves of the days"
            return finding
        }
        finding.tier = .t2

        // A pair related by definition moves together whatever happens first: order in time says nothing here.
        if finding.nearTautological != nil {
            finding.tierNote = "related by definition, so which comes first in time cannot show a cause"
            return finding
        }

        // T3 (a): temporal precedence.
        let gap = c.lag.rawValue + (c.feature.timing == .eveningBefore ? 1 : 0)
        guard gap > 0 else {
            finding.tierNote = "same-morning answers and measurements have no order in time"
            return finding
        }
        guard a.n >= Floors.laggedAssociation else {
            finding.tierNote =
                "order in time is judged from \(Floors.laggedAssociation) days; "
                + "\(Floors.laggedAssociation - a.n) more needed"
            return finding
        }
        let reverse = table.reversePairs(feature: c.feature, outcome: c.outcome, gap: gap)
        let reverseR = reverse.x.count >= 3 ? (pearson(reverse.x, reverse.y) ?? 0) : 0
        finding.precedence = (abs(a.r), abs(reverseR))
        guard abs(a.r) > abs(reverseR) else {
            finding.tierNote = "the \(c.outcome.label) predicts the \(c.feature.label) at least as well as the reverse"
            return finding
        }

        // T3 (b): no co-occurring habit explains it away.
        for h in habitFeatures where h != c.feature {
            let triple = table.triples(feature: c.feature, outcome: c.outcome, lag: c.lag, other: h)
            guard triple.x.count >= 8, let rxy = pearson(triple.x, triple.y), let rxh = pearson(triple.x, triple.z),
                abs(rxh) >= Scan.minimumEffect
            else { continue }
            let ryh = pearson(triple.y, triple.z) ?? 0
            let partial = partialCorrelation(xy: rxy, xz: rxh, yz: ryh)
            if partial == nil || abs(partial!) < Scan.minimumEffect || (partial! < 0) != (rxy < 0) {
                finding.tierNote = "\(h.label) often comes with it and explains it away"
                return finding
            }
        }
        // T3 (c): the day of the week does not explain it (DESIGN §6: calendar rhythms are checked before T3).
        guard let weekday = finding.weekday, !weekday.explained else {
            finding.tierNote =
                finding.weekday == nil
                ? "too few days on each day of the week to rule out the week's rhythm"
                : "the day of the week explains it: comparing like days leaves too little"
            return finding
        }
        finding.tier = .t3
        return finding
    }

    /// Keeps the strongest of related outcomes (gapAvg, gapPeak) per feature and lag; the others are named in
    /// `collapsed`. Then orders by tier (highest first), then q.
    static func collapseRelated(_ findings: [Finding]) -> [Finding] {
        var kept: [Finding] = []
        for f in findings {
            guard let group = DefinitionalCoupling.relatedGroup(f.outcome) else {
                kept.append(f)
                continue
            }
            if let j = kept.firstIndex(where: {
                $0.feature == f.feature && $0.lag == f.lag && DefinitionalCoupling.relatedGroup($0.outcome) == group
            }) {
                if abs(f.association.r) > abs(kept[j].association.r) {
                    var stronger = f
                    stronger.collapsed = kept[j].collapsed + [kept[j].outcome]
                    kept[j] = stronger
                } else {
                    kept[j].collapsed.append(f.outcome)
                }
            } else {
                kept.append(f)
            }
        }
        return kept.sorted { a, b in
            if a.tier != b.tier { return a.tier > b.tier }
            if a.q != b.q { return a.q < b.q }
            return abs(a.association.r) > abs(b.association.r)
        }
    }
}

struct Candidate: Sendable {
    var feature: Feature
    var outcome: Outcome
    var lag: Lag
    var pairs: PairedSeries
}

/// Paired values in date order; `days` are the day numbers of the feature's morning.
struct PairedSeries: Sendable {
    var x: [Double] = []
    var y: [Double] = []
    var days: [Int] = []
}

/// Days by day number, for pairing across lags.
struct DayIndex: Sendable {
    let byDay: [Int: DayRecord]
    let ordered: [Int]

    init(_ days: [DayRecord]) {
        var map: [Int: DayRecord] = [:]
        for d in days { map[d.date.dayNumber] = d }
        byDay = map
        ordered = map.keys.sorted()
    }

    /// The outcome's values in date order, with their day numbers (days without a value left out).
    func series(_ outcome: Outcome) -> (values: [Double], days: [Int]) {
        var values: [Double] = []
        var days: [Int] = []
        for d in ordered {
            guard let v = byDay[d].flatMap(outcome.value(in:)) else { continue }
            values.append(v)
            days.append(d)
        }
        return (values, days)
    }

    /// Feature on morning d with outcome on morning d + lag, both present.
    func pairs(feature: Feature, outcome: Outcome, lag: Lag) -> PairedSeries {
        var p = PairedSeries()
        for d in ordered {
            guard let f = byDay[d].flatMap(feature.value(in:)),
                let o = byDay[d + lag.rawValue].flatMap(outcome.value(in:))
            else { continue }
            p.x.append(f)
            p.y.append(o)
            p.days.append(d)
        }
        return p
    }

    /// The reverse ordering: outcome on morning d (x) against the feature entered on morning d + gap (y).
    func reversePairs(feature: Feature, outcome: Outcome, gap: Int) -> PairedSeries {
        var p = PairedSeries()
        for d in ordered {
            guard let o = byDay[d].flatMap(outcome.value(in:)),
                let f = byDay[d + gap].flatMap(feature.value(in:))
            else { continue }
            p.x.append(o)
            p.y.append(f)
            p.days.append(d)
        }
        return p
    }

    /// Feature and another habit on morning d, outcome on d + lag, all present.
    func triples(feature: Feature, outcome: Outcome, lag: Lag, other: Feature)
        -> (x: [Double], y: [Double], z: [Double])
    {
        var x: [Double] = []
        var y: [Double] = []
        var z: [Double] = []
        for d in ordered {
            guard let day = byDay[d], let f = feature.value(in: day), let h = other.value(in: day),
                let o = byDay[d + lag.rawValue].flatMap(outcome.value(in:))
            else { continue }
            x.append(f)
            y.append(o)
            z.append(h)
        }
        return (x, y, z)
    }
}

/// How RecoveryDeck's daily rMSSD agrees with another app's over the days both have (the spec's
/// week of parallel readings against Elite HRV: "expect similar order of magnitude and co-movement, not
/// equality"). Pure: the caller pairs the days.
public struct Agreement: Equatable, Sendable {
    /// One calendar day both sources have, rMSSD in ms.
    public struct Day: Equatable, Sendable {
        public let day: Int
        public let deck: Double
        public let other: Double
        public init(day: Int, deck: Double, other: Double) {
            self.day = day
            self.deck = deck
            self.other = other
        }
    }

    /// Fewer overlapping days than this and no figure is worth printing.
    public static let minimumDays = 5

    public let n: Int
    /// mean(deck) / mean(other), on rMSSD in ms.
    public let ratioOfMeans: Double
    public let pearson: Double?
    /// Spearman's ρ: Pearson of average ranks (ties share the mean rank).
    public let spearman: Double?
    /// Pearson of day-to-day changes over pairs of consecutive calendar days both have (co-movement).
    public let changeCorrelation: Double?
    public let changePairs: Int
    /// Bland & Altman 1986 (Lancet i:307) on ln rMSSD: bias = mean(ln deck − ln other), limits bias ± 1.96 SD.
    public let bias: Double
    public let lowerLimit: Double
    public let upperLimit: Double

    /// nil under `minimumDays` days or when a value is not a positive finite number.
    public init?(_ days: [Day]) {
        let days = days.sorted { $0.day < $1.day }
        guard days.count >= Self.minimumDays,
            days.allSatisfy({ $0.deck.isFinite && $0.deck > 0 && $0.other.isFinite && $0.other > 0 })
        else { return nil }
        let a = days.map(\.deck)
        let b = days.map(\.other)
        n = days.count
        ratioOfMeans = a.reduce(0, +) / b.reduce(0, +)
        pearson = Insights.pearson(a, b)
        spearman = Insights.pearson(Self.ranks(a), Self.ranks(b))
        var da: [Double] = []
        var db: [Double] = []
        for i in 1..<days.count where days[i].day == days[i - 1].day + 1 {
            da.append(a[i] - a[i - 1])
            db.append(b[i] - b[i - 1])
        }
        changePairs = da.count
        changeCorrelation = Insights.pearson(da, db)
        let d = zip(a, b).map { naturalLog($0) - naturalLog($1) }
        let m = d.reduce(0, +) / Double(d.count)
        let sd = (d.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(d.count - 1)).squareRoot()
        bias = m
        lowerLimit = m - 1.96 * sd
        upperLimit = m + 1.96 * sd
    }

    /// 1-based ranks, ties given their mean rank.
    static func ranks(_ x: [Double]) -> [Double] {
        let order = x.indices.sorted { x[$0] < x[$1] }
        var r = [Double](repeating: 0, count: x.count)
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && x[order[j + 1]] == x[order[i]] { j += 1 }
            let mean = Double(i + j + 2) / 2
            for k in i...j { r[order[k]] = mean }
            i = j + 1
        }
        return r
    }
}

/// The figures HRV4Training and Elite HRV show beside the light: ln rMSSD, its 7-day rolling mean
/// and coefficient of variation, the smallest worthwhile change and how many of the week's mornings
/// were valid. Pure: the caller hands in one value per calendar day, oldest first, the
/// last being the morning read out; nil marks a day with no valid reading.
///
/// - Plews et al. 2012 (Eur J Appl Physiol 112:3729): ln rMSSD, 7-day rolling mean, CV of the window.
/// - Flatt & Esco 2015 (J Strength Cond Res 29:1535): the 7-day CV tracks training load.
/// - Plews et al. 2014 (Int J Sports Physiol Perform 9:783): at least 3 valid readings of 7.
/// - Smallest worthwhile change: 0.5 × the 60-day SD of ln rMSSD (Plews 2012; Buchheit 2014).
public struct LnRMSSDWeek: Equatable, Sendable {
    /// Fewer valid mornings than this in the last 7 and the 7-day mean is not to be trusted.
    public static let minimumValidMornings = 3
    public static let window = 7
    public static let baselineWindow = 60

    /// ln rMSSD (rMSSD in ms) of the morning read out; nil when that morning had no valid reading.
    public let lnRMSSD: Double?
    /// Mean ln rMSSD of the valid mornings among the last 7 calendar days; nil when none was valid.
    public let rollingMean: Double?
    /// Sample SD / mean × 100 of the same ln values, in percent; nil under two valid mornings.
    public let coefficientOfVariation: Double?
    /// 0.5 × the sample SD of ln rMSSD over the last 60 calendar days; nil under two valid mornings.
    public let smallestWorthwhileChange: Double?
    /// How many of the last 7 calendar days had a valid reading.
    public let validMornings: Int

    /// The 7-day mean rests on fewer than 3 mornings (Plews 2014).
    public var isRollingMeanUnreliable: Bool { validMornings < Self.minimumValidMornings }

    /// - Parameter rmssd: rMSSD in ms per calendar day, oldest first, last = the morning read out.
    ///   Non-positive or non-finite values count as invalid (ln is undefined there).
    public init(rmssd: [Double?]) {
        let ln: [Double?] = rmssd.map { v in
            guard let v, v.isFinite, v > 0 else { return nil }
            return naturalLog(v)
        }
        lnRMSSD = ln.last ?? nil
        let week = ln.suffix(Self.window).compactMap { $0 }
        validMornings = week.count
        rollingMean = week.isEmpty ? nil : week.reduce(0, +) / Double(week.count)
        if let mean = rollingMean, let sd = Self.sampleSD(week), mean != 0 {
            coefficientOfVariation = sd / mean * 100
        } else {
            coefficientOfVariation = nil
        }
        smallestWorthwhileChange = Self.sampleSD(ln.suffix(Self.baselineWindow).compactMap { $0 }).map { 0.5 * $0 }
    }

    static func sampleSD(_ x: [Double]) -> Double? {
        guard x.count >= 2 else { return nil }
        let m = x.reduce(0, +) / Double(x.count)
        let ss = x.reduce(0) { $0 + ($1 - m) * ($1 - m) }
        return (ss / Double(x.count - 1)).squareRoot()
    }
}

import RecoveryCore

/// "Not like you": several mornings in a row whose lying heart rate is above the person's own recent normal and
/// whose ln rMSSD is below it. A T0 fact (a stretch of days outside the person's baseline), never a diagnosis.
///
/// A one-sided CuSum (Page 1954) on standardised residuals, the shape of Mishra et al. 2020's RHR-CuSum (Nat
/// Biomed Eng 4:1208: resting HR residuals against a 28-day baseline) adapted to one careful morning a day and
/// to two channels:
///
/// - Each morning, each channel's residual against the person's normal: the mean and SD of that channel over
///   the 60 calendar days before the current run began (days of earlier flagged episodes left out, so an illness
///   does not become the normal). A channel needs 14 mornings there; the SD is never taken below its resolution.
///   Mishra et al. take 28 days; on one morning a day the mean of 28 days moves too much with the days it happens
///   to hold, and the two months the box's own baselines use raise the share of episodes found at fewer false
///   alerts (docs/not-like-you.md).
/// - z = (lying HR − mean) / SD and z = (mean − ln rMSSD) / SD, each clipped to ±4. With both, the day's score is
///   their sum over √(2(1 + r)), r their correlation over the baseline's mornings: unit variance on an ordinary
///   morning, and two channels that agree weigh more than either alone (two z of 2 with r 0.4 score 2.4). One
///   channel alone scores its z; a morning with neither leaves the CuSum as it was (missing stays missing:
///   never zero, never carried).
/// - C = max(0, C + score − allowance). A flag is raised when C reaches the threshold and at
///   least two of the run's mornings raised it (one wild morning is not an episode); at most one flag an
///   episode. The episode ends on the first morning back inside the person's normal range (each present z
///   under 2, where about 95 % of their ordinary mornings fall), and C starts again from 0. A flag raised again
///   within 7 days of that end resumes the episode: it is not new, so one good morning in the middle of an
///   illness does not tell the person twice.
///
/// The threshold and allowance come from the calibration benchmark (docs/not-like-you.md).
public enum NotLikeYou {
    public struct Parameters: Hashable, Sendable {
        public var baselineDays = 60
        public var minimumBaseline = 14
        /// Subtracted from each morning's score (the CuSum's reference value, half the shift in z it is tuned
        /// to find).
        public var allowance = 1.2
        public var threshold = 2.75
        public var minimumMornings = 2
        public var clip = 4.0
        /// Mornings in a row back inside the normal that end an episode.
        public var insideMorningsToEnd = 1
        /// A flag raised within this many days of an episode's end resumes that episode instead of telling a new
        /// one: one good morning in the middle of an illness ends the flag, and the person has been told already.
        public var resumeWithinDays = 7
        /// z under this on every present channel: inside the person's normal range (about 95 % of their
        /// ordinary mornings).
        public var insideZ = 2.0
        /// SD floors: lying HR is whole bpm; ln rMSSD moves 0.02 for a 2 % change.
        public var lyingHRSDFloor = 1.0
        public var lnRMSSDSDFloor = 0.02

        public init() {}

        public static let `default` = Parameters()
    }

    /// One calendar day's values; nil where the day has none.
    public struct Day: Hashable, Sendable {
        public var lyingHR: Double?
        public var rmssd: Double?

        public init(lyingHR: Double?, rmssd: Double?) {
            self.lyingHR = lyingHR
            self.rmssd = rmssd
        }
    }

    public enum Status: String, Hashable, Sendable {
        /// Fewer than 14 mornings of either channel in the baseline window.
        case building
        case normal
        /// Inside a flagged episode.
        case flagged
    }

    /// A flagged stretch, as of one day.
    public struct Episode: Hashable, Sendable {
        /// Index of the run's first morning (the first day the CuSum rose from 0).
        public var firstDay: Int
        /// Index of the day the flag was raised.
        public var flaggedDay: Int
        /// Mornings with a value in the run so far, and the calendar days it spans up to the day read out.
        public var mornings: Int
        public var days: Int
        /// Mean lying HR minus the normal's mean over the run's mornings (bpm); nil without lying HR.
        public var lyingHRAbove: Double?
        /// The normal's mean minus the mean ln rMSSD over the run's mornings; nil without rMSSD.
        public var lnRMSSDBelow: Double?

        public var tier: Tier { .t0 }

        /// "the last 3 mornings: lying HR 6 bpm above your normal and ln rMSSD 0.21 below it — a pattern that
        /// often comes with illness, hard training or poor sleep; not a diagnosis"
        public var sentence: String {
            let span = mornings == days ? "the last \(mornings) mornings" : "\(mornings) of the last \(days) mornings"
            var parts: [String] = []
            if let hr = lyingHRAbove {
                parts.append("lying HR \(Int(abs(hr).rounded())) bpm \(hr >= 0 ? "above" : "below") your normal")
            }
            if let ln = lnRMSSDBelow {
                let size = ExperimentResult.fixed(abs(ln), 2)
                parts.append("ln rMSSD \(size) \(ln >= 0 ? "below" : "above") \(parts.isEmpty ? "your normal" : "it")")
            }
            let what = parts.joined(separator: " and ")
            return "\(span): \(what) — a pattern that often comes with illness, hard training or poor sleep; "
                + "not a diagnosis"
        }
    }

    /// The detector's view of one day.
    public struct Morning: Hashable, Sendable {
        public var status: Status
        /// True on the day a flag is raised (once an episode).
        public var isNewFlag: Bool
        /// True on the day a flag is raised, new or resuming an episode that ended in the week before (the panel
        /// shows the flag again; `isNewFlag` stays false, so the person is not told of a new one).
        public var isRaised = false
        public var cusum: Double
        public var zLyingHR: Double?
        public var zLnRMSSD: Double?
        /// The flagged episode this day belongs to; nil unless `status` is `flagged`.
        public var episode: Episode?
    }

    /// Runs the detector over calendar days, oldest first (index 0 = the first day). Each day's result uses only
    /// that day and the days before it, so the last entry is what the box would have said that morning.
    public static func run(_ days: [Day], parameters p: Parameters = .default) -> [Morning] {
        let ln: [Double?] = days.map { d in d.rmssd.flatMap { $0 > 0 && $0.isFinite ? naturalLog($0) : nil } }
        let hr: [Double?] = days.map { d in d.lyingHR.flatMap { $0.isFinite ? $0 : nil } }
        var excluded = [Bool](repeating: false, count: days.count)
        var result: [Morning] = []
        result.reserveCapacity(days.count)
        var c = 0.0
        var runStart: Int?
        var runMornings: [(index: Int, hrAbove: Double?, lnBelow: Double?, concerning: Bool)] = []
        var episode: Episode?
        var inside = 0
        /// The day the latest episode ended.
        var endedOn: Int?

        for t in days.indices {
            let anchor = runStart ?? t
            let lo = max(0, anchor - p.baselineDays)
            let window = (lo..<anchor).filter { !excluded[$0] }
            let hrNorm = norm(window.compactMap { hr[$0] }, floor: p.lyingHRSDFloor, minimum: p.minimumBaseline)
            let lnNorm = norm(window.compactMap { ln[$0] }, floor: p.lnRMSSDSDFloor, minimum: p.minimumBaseline)
            guard hrNorm != nil || lnNorm != nil else {
                result.append(Morning(status: .building, isNewFlag: false, cusum: 0, zLyingHR: nil, zLnRMSSD: nil))
                continue
            }
            var zHR: Double?
            var zLn: Double?
            if let v = hr[t], let n = hrNorm { zHR = clip((v - n.mean) / n.sd, p.clip) }
            if let v = ln[t], let n = lnNorm { zLn = clip((n.mean - v) / n.sd, p.clip) }
            var isNew = false
            var isRaised = false
            if zHR != nil || zLn != nil {
                var score = (zHR ?? 0) + (zLn ?? 0)
                if zHR != nil, zLn != nil, let a = hrNorm, let b = lnNorm {
                    // The two residuals move together (a low-HRV morning is often a high-HR one): their sum is
                    // scaled to unit variance, so two channels that agree add up to more than either alone
                    // without the pair's ordinary wobble counting twice.
                    let r = correlation(
                        window.compactMap { i in
                            guard let h = hr[i], let l = ln[i] else { return nil }
                            return ((h - a.mean) / a.sd, (b.mean - l) / b.sd)
                        })
                    score /= (2 * (1 + r)).squareRoot()
                }
                let wasZero = c == 0
                let step = score - p.allowance
                c = max(0, c + step)
                if c > 0 {
                    if wasZero && episode == nil {
                        runStart = t
                        runMornings = []
                    }
                    runMornings.append(
                        (
                            t, zHR == nil ? nil : hr[t]! - hrNorm!.mean, zLn == nil ? nil : lnNorm!.mean - ln[t]!,
                            step > 0
                        ))
                } else if episode == nil {
                    runStart = nil
                    runMornings = []
                }
                if episode == nil, c >= p.threshold, runMornings.filter(\.concerning).count >= p.minimumMornings,
                    let start = runStart
                {
                    episode = Episode(
                        firstDay: start, flaggedDay: t, mornings: 0, days: 0, lyingHRAbove: nil, lnRMSSDBelow: nil)
                    // Soon after an episode ended, the flag goes on where it stopped: not new, and not told again.
                    isNew = endedOn.map { t - $0 > p.resumeWithinDays } ?? true
                    isRaised = true
                }
                if episode != nil {
                    let isInside = (zHR ?? 0) < p.insideZ && (zLn ?? 0) < p.insideZ
                    inside = isInside && !isRaised ? inside + 1 : 0
                }
            }
            if var e = episode {
                e.mornings = runMornings.count
                e.days = t - e.firstDay + 1
                e.lyingHRAbove = mean(runMornings.compactMap(\.hrAbove))
                e.lnRMSSDBelow = mean(runMornings.compactMap(\.lnBelow))
                for i in e.firstDay...t { excluded[i] = true }
                result.append(
                    Morning(
                        status: .flagged, isNewFlag: isNew, isRaised: isRaised, cusum: c, zLyingHR: zHR, zLnRMSSD: zLn,
                        episode: e))
                if inside >= p.insideMorningsToEnd {
                    endedOn = t
                    episode = nil
                    runStart = nil
                    runMornings = []
                    inside = 0
                    c = 0
                } else {
                    episode = e
                }
            } else {
                result.append(Morning(status: .normal, isNewFlag: false, cusum: c, zLyingHR: zHR, zLnRMSSD: zLn))
            }
        }
        return result
    }

    static func norm(_ x: [Double], floor: Double, minimum: Int) -> (mean: Double, sd: Double)? {
        guard x.count >= minimum, let m = mean(x), let sd = LnRMSSDWeek.sampleSD(x) else { return nil }
        return (m, max(floor, sd))
    }

    /// Pearson's r of the concerning residuals over the baseline's paired mornings, held to [−0.5, 0.9]; 0
    /// under 10 pairs (too few to say).
    static func correlation(_ pairs: [(Double, Double)]) -> Double {
        guard pairs.count >= 10, let r = pearson(pairs.map(\.0), pairs.map(\.1)) else { return 0 }
        return min(0.9, max(-0.5, r))
    }

    static func mean(_ x: [Double]) -> Double? { x.isEmpty ? nil : x.reduce(0, +) / Double(x.count) }

    static func clip(_ z: Double, _ limit: Double) -> Double { min(limit, max(-limit, z)) }
}

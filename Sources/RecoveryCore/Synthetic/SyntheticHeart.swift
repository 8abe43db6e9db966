#if canImport(Glibc)
    import Glibc  // libm only (sin, exp).
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A synthetic heart producing one RR interval at a time, so a virtual strap can replay a morning on a real
/// timeline and be told when the person stands (`standAtMs` may be set any time before that moment).
///
/// Lying: RR = 60000 / lying HR + respiratory sinus arrhythmia (a sine at the day's breathing rate, ~0.25 Hz)
/// + a slow 0.1 Hz wave + white noise. The three share the day's rMSSD target (variance shares 0.75, 0.05,
/// 0.20), each amplitude solved from rMSSD² = 2·A²·sin²(δ/2) for a sine whose phase advances δ per beat and
/// 2·σ² for noise, so the lying RR have the target rMSSD.
/// Standing: HR rises by sustained·(1 − e^(−τ/3)) + (peak − sustained)·(τ/τp)⁶·e^(6(1 − τ/τp)) at τ s after
/// standing; the transient peaks at τp (10–12 s) and falls back within ~10 s (the initial orthostatic response),
/// so the strap's smoothed BPM peaks 10–15 s after standing, then settles.
/// Vagal withdrawal shrinks the beat-to-beat variation to 20 % over the first 10 s of standing.
/// Every RR is quantised to the strap's 1/1024 s, so `rrMs` is exactly what a Polar H10 would send.
public struct SyntheticHeart: Sendable {
    public struct Options: Hashable, Sendable {
        /// Chance per beat of a premature (ectopic) beat: 65 % of the RR, followed by a compensatory pause
        /// that makes the pair two normal beats long.
        public var ectopicProbability: Double
        /// Chance per beat of a detection artifact: a missed beat (two RR merged) or a spurious one (an RR split
        /// in two).
        public var artifactProbability: Double
        /// False for a strap that sends BPM only (HR-only mode): notifications carry no RR.
        public var rrAvailable: Bool

        public init(ectopicProbability: Double = 0, artifactProbability: Double = 0, rrAvailable: Bool = true) {
            self.ectopicProbability = ectopicProbability
            self.artifactProbability = artifactProbability
            self.rrAvailable = rrAvailable
        }
    }

    public let day: SyntheticDay
    public let options: Options
    /// When the person stands (ms since the session started); nil while they keep lying.
    public var standAtMs: Int64?
    /// End time of the last beat produced, ms.
    public private(set) var clockMs = 0.0

    private var random: SeededRandom
    private var pending: [SyntheticBeat] = []
    private let respirationPhase: Double
    private let slowPhase: Double

    public init(day: SyntheticDay, options: Options = .init()) {
        self.day = day
        self.options = options
        var random = SeededRandom(seed: day.person.seed, stream: 3, UInt64(day.index))
        respirationPhase = random.uniform(0, 2 * Double.pi)
        slowPhase = random.uniform(0, 2 * Double.pi)
        // Start mid-cycle: the first beat is drawn like any other.
        clockMs = random.uniform(0, 600)
        self.random = random
    }

    /// The underlying heart rate at `ms` (no beat-to-beat variation): lying HR, plus the orthostatic rise.
    public func targetHeartRate(atMs ms: Double) -> Double {
        day.lyingHRBpm + rise(atMs: ms)
    }

    private func rise(atMs ms: Double) -> Double {
        guard let stand = standAtMs, ms > Double(stand) else { return 0 }
        let tau = (ms - Double(stand)) / 1000
        let ratio = tau / day.peakDelayS
        let transient = pow(ratio, 6) * exp(6 * (1 - ratio))
        return day.sustainedRiseBpm * (1 - exp(-tau / 3)) + (day.peakRiseBpm - day.sustainedRiseBpm) * transient
    }

    /// Share of lying beat-to-beat variation left at `ms` (1 lying, 0.2 from 10 s after standing).
    private func variationScale(atMs ms: Double) -> Double {
        guard let stand = standAtMs, ms > Double(stand) else { return 1 }
        let tau = (ms - Double(stand)) / 1000
        return 1 - 0.8 * min(1, tau / 10)
    }

    /// The next beat.
    public mutating func nextBeat() -> SyntheticBeat {
        if !pending.isEmpty { return emit(pending.removeFirst()) }
        let t = clockMs
        let meanRR = 60_000 / targetHeartRate(atMs: t)
        let target = day.targetRMSSDMs * variationScale(atMs: t)
        // Amplitudes from rMSSD² = 2A²sin²(δ/2) (sine advancing δ per beat) and 2σ² (white noise).
        let deltaResp = 2 * Double.pi * day.respirationHz * meanRR / 1000
        let deltaSlow = 2 * Double.pi * 0.1 * meanRR / 1000
        let aResp = (0.75).squareRoot() * target / (2.0.squareRoot() * sin(deltaResp / 2))
        let aSlow = (0.05).squareRoot() * target / (2.0.squareRoot() * sin(deltaSlow / 2))
        let sigma = (0.20).squareRoot() * target / 2.0.squareRoot()
        let seconds = t / 1000
        let rr =
            meanRR + aResp * sin(2 * Double.pi * day.respirationHz * seconds + respirationPhase)
            + aSlow * sin(2 * Double.pi * 0.1 * seconds + slowPhase) + sigma * random.normal()

        if random.chance(options.ectopicProbability) {
            let premature = 0.65 * rr
            pending.append(SyntheticBeat(rrMs: 2 * rr - premature, kind: .compensatory))
            return emit(SyntheticBeat(rrMs: premature, kind: .ectopic))
        }
        if random.chance(options.artifactProbability) {
            if random.chance(0.5) {
                let next = meanRR + sigma * random.normal()
                return emit(SyntheticBeat(rrMs: rr + next, kind: .artifact))  // missed detection
            }
            let first = rr * random.uniform(0.3, 0.5)
            pending.append(SyntheticBeat(rrMs: rr - first, kind: .artifact))
            return emit(SyntheticBeat(rrMs: first, kind: .artifact))  // spurious detection
        }
        return emit(SyntheticBeat(rrMs: rr, kind: .normal))
    }

    private mutating func emit(_ beat: SyntheticBeat) -> SyntheticBeat {
        var quantised = beat
        let raw = UInt16(min(65_535, max(1, (beat.rrMs * 1.024).rounded())))
        quantised.raw = raw
        quantised.rrMs = Double(raw) * 1000 / 1024
        clockMs += quantised.rrMs
        quantised.endMs = clockMs
        return quantised
    }
}

/// One synthetic heartbeat's RR interval.
public struct SyntheticBeat: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case normal
        case ectopic
        case compensatory
        case artifact
    }

    /// The strap's 1/1024 s count.
    public var raw: UInt16 = 0
    /// `raw` in ms (RecoveryDeck spec §4.1).
    public var rrMs: Double
    /// When the beat ended: ms since the session started (the cumulative sum of RR).
    public var endMs: Double = 0
    public var kind: Kind

    public init(rrMs: Double, kind: Kind) {
        self.rrMs = rrMs
        self.kind = kind
    }
}

/// Phase heart rates and the orthostatic numbers (RecoveryDeck spec §5.2, §5.3).
///
/// A phase is a half-open range of session time `[start, end)` in ms; a sample belongs to the phase its
/// `receivedAtMs` falls in.
///
/// Mean HR over a phase: 60000 / mean(RR) when the RR are *dense*, else the mean of the strap's BPM values.
/// Dense means the in-range RR (300...2000 ms, spec §5.1 rule 1) received in the phase add up to at least 80 %
/// of the phase's wall duration: the beats then account for the time, so their mean is the heart's rate. Below
/// that, RR were lost (dropouts, an HR-only strap) and the strap's own BPM, which it keeps reporting, is the
/// better witness. The 20 % successive-difference rule is not applied here: standing up changes the rate
/// quickly, and the mean over tens of beats does not need it.
///
/// Peak standing HR is the maximum BPM value over the full standing phase (spec §5.2: "max BPM over the full 60 s
/// standing window"). Instantaneous HR from a single RR does not count: one short interval (an ectopic beat or a
/// double-counted R wave) would read as a spike the heart never made; the strap's BPM is already smoothed.
///
/// A BPM value of 0 is the strap saying "no contact" and is missing, not a heart rate; the RR that came in the
/// same notification (same `receivedAtMs`) are not counted either: a strap reading noise can split one beat's time
/// into several intervals, which would double the rate. Missing inputs give missing outputs: no phase data, no
/// number.
public enum OrthostaticCalculator {
    /// Share of a phase's duration the RR must cover to be dense.
    public static let denseCoverage = 0.8

    /// Where a phase's mean HR came from.
    public enum Source: String, Hashable, Sendable {
        case rr
        case bpm
    }

    public struct PhaseHeartRate: Hashable, Sendable {
        public var bpm: Double
        public var source: Source
    }

    /// Mean HR over `phase` (spec §5.2), or nil when the phase holds neither dense RR nor a BPM value.
    public static func meanHeartRate<RR: Collection<RRInterval>, HR: Collection<HeartRateReading>>(
        rr: RR, heartRates: HR, phase: Range<Int64>
    ) -> PhaseHeartRate? {
        guard phase.upperBound > phase.lowerBound else { return nil }
        let withoutContact = Set(
            heartRates.lazy.filter { $0.bpm == 0 && phase.contains($0.receivedAtMs) }.map(\.receivedAtMs))
        var rrSum = 0.0
        var rrCount = 0
        for interval in rr where phase.contains(interval.receivedAtMs) {
            if withoutContact.contains(interval.receivedAtMs) { continue }
            let ms = interval.milliseconds
            if ArtifactFilter.isInRange(ms) {
                rrSum += ms
                rrCount += 1
            }
        }
        if rrCount > 0 && rrSum >= denseCoverage * Double(phase.upperBound - phase.lowerBound) {
            return PhaseHeartRate(bpm: 60_000 / (rrSum / Double(rrCount)), source: .rr)
        }
        var bpmSum = 0.0
        var bpmCount = 0
        for reading in heartRates where phase.contains(reading.receivedAtMs) && reading.bpm > 0 {
            bpmSum += Double(reading.bpm)
            bpmCount += 1
        }
        return bpmCount > 0 ? PhaseHeartRate(bpm: bpmSum / Double(bpmCount), source: .bpm) : nil
    }

    /// Maximum BPM value in `phase` (spec §5.2), or nil when there is none.
    public static func peakHeartRate<HR: Collection<HeartRateReading>>(heartRates: HR, phase: Range<Int64>) -> Double? {
        var peak: UInt16 = 0
        for reading in heartRates where phase.contains(reading.receivedAtMs) { peak = max(peak, reading.bpm) }
        return peak > 0 ? Double(peak) : nil
    }

    /// The orthostatic result (spec §5.3) from the lying and standing phases, or nil when any part is missing.
    public static func result<RR: Collection<RRInterval>, HR: Collection<HeartRateReading>>(
        rr: RR, heartRates: HR, lying: Range<Int64>, standing: Range<Int64>
    ) -> OrthostaticResult? {
        guard let lyingHR = meanHeartRate(rr: rr, heartRates: heartRates, phase: lying),
            let standingHR = meanHeartRate(rr: rr, heartRates: heartRates, phase: standing),
            let peak = peakHeartRate(heartRates: heartRates, phase: standing)
        else { return nil }
        return OrthostaticResult(avgLyingHR: lyingHR.bpm, avgStandingHR: standingHR.bpm, peakStandingHR: peak)
    }

    /// The lying and standing phases of a stored morning, rebuilt from its marks (spec §6.1): lying is the
    /// `MorningProtocol.lyingMs` (30 s) before `lyingEnd`, standing `[standStart, standEnd)`. Phases end on their
    /// schedule, so the lying phase always ends at `lyingEnd` and lasts exactly 30 s; it does not always begin
    /// at `captureEnd`: a morning resumed after a drop-out settles again between the capture and the lying
    /// phase. Nil when the marks hold no orthostatic part.
    public static func phases(of marks: PhaseMarks) -> (lying: Range<Int64>, standing: Range<Int64>)? {
        guard let lyingEnd = marks.lyingEndMs, let standStart = marks.standStartMs, let standEnd = marks.standEndMs,
            lyingEnd - MorningProtocol.lyingMs >= marks.captureEndMs, standEnd > standStart
        else { return nil }
        return ((lyingEnd - MorningProtocol.lyingMs)..<lyingEnd, standStart..<standEnd)
    }

    /// The orthostatic result from a stored morning's marks (`phases(of:)`): a re-analysis gives what the session
    /// computed.
    public static func result<RR: Collection<RRInterval>, HR: Collection<HeartRateReading>>(
        rr: RR, heartRates: HR, marks: PhaseMarks
    ) -> OrthostaticResult? {
        guard let phases = phases(of: marks) else { return nil }
        return result(rr: rr, heartRates: heartRates, lying: phases.lying, standing: phases.standing)
    }
}

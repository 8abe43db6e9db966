/// One series the traffic light watches (RecoveryDeck spec §5.4), in keypad order (DESIGN §1: keys 1–5).
public enum Channel: String, CaseIterable, Hashable, Sendable {
    case rmssd
    case lyingHR
    case gapPeak
    case gapAvg
    case subjective

    /// Which way a deviation is concerning (spec §5.4).
    public enum Direction: String, Hashable, Sendable {
        case low
        case high
    }

    public var label: String {
        switch self {
        case .rmssd: "rMSSD"
        case .lyingHR: "lying HR"
        case .gapPeak: "gap peak"
        case .gapAvg: "gap avg"
        case .subjective: "subjective"
        }
    }

    /// Low rMSSD, high lying HR, high gaps, low subjective (spec §5.4).
    public var concerningDirection: Direction {
        switch self {
        case .rmssd, .subjective: .low
        case .lyingHR, .gapPeak, .gapAvg: .high
        }
    }

    /// The series' resolution: the norm's SD is never taken below it. A band narrower than what the value can
    /// resolve would turn one step (1 bpm, one questionnaire point) into a red light, and an SD of 0 (the same
    /// value every day) would make z infinite. BPM values are whole numbers; the subjective mean moves in
    /// steps of 0.2 (one point on one of five items); rMSSD is reported to the ms.
    public var sdFloor: Double {
        switch self {
        case .rmssd, .lyingHR, .gapPeak, .gapAvg: 1.0
        case .subjective: 0.2
        }
    }

    /// The day's value of this series, or nil when the day has none. Only valid values count: rMSSD from a
    /// capture whose quality passed; orthostatic numbers from a completed orthostatic test; the subjective mean
    /// from a questionnaire. Missing stays missing (spec §5.4): nothing is zero-filled or carried.
    public func value(in day: DayRecord) -> Double? {
        switch self {
        case .rmssd:
            guard let m = day.measurement, m.quality.isOK else { return nil }
            return m.hrv?.rmssdMs
        case .lyingHR:
            guard let m = day.measurement else { return nil }
            if m.orthostaticStatus == .completed, let o = m.orthostatic { return o.avgLyingHR }
            // An imported morning without a standing test: its mean HR is the other app's resting reading,
            // taken before getting up, so it joins the lying HR series (spec §6.1: the lying HR is the daily RHR).
            guard day.imported, m.orthostatic == nil else { return nil }
            return m.meanHRBpm
        case .gapPeak, .gapAvg:
            guard let m = day.measurement, m.orthostaticStatus == .completed, let o = m.orthostatic else { return nil }
            return self == .gapPeak ? o.gapPeak : o.gapAvg
        case .subjective:
            return day.questionnaire?.scores.mean
        }
    }
}

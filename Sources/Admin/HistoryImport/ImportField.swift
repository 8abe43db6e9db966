/// A value an imported morning can carry, named as in `--map` (`date=COL,rmssd=COL,…`).
public enum ImportField: String, CaseIterable, Sendable {
    case date
    /// rMSSD in ms (not a vendor's scaled "HRV score", such as Elite HRV's scaled ln rMSSD).
    case rmssd
    /// Average lying heart rate (bpm).
    case lyingHR = "lying_hr"
    /// Average standing heart rate (bpm), or `gap_avg` with `lying_hr`.
    case standingHR = "standing_hr"
    /// Peak standing heart rate (bpm), or `gap_peak` with `lying_hr`.
    case peakHR = "peak_hr"
    case gapAvg = "gap_avg"
    case gapPeak = "gap_peak"
    case fatigue
    case mood
    case soreness
    case stress
    case sleep

    /// The five questionnaire items, in the keypad's order.
    static let scores: [ImportField] = [.fatigue, .mood, .soreness, .stress, .sleep]

    /// The plausible range of a value: outside it the line is refused as malformed, not clipped.
    var range: ClosedRange<Double> {
        switch self {
        case .date: 0...0
        case .rmssd: 1...500
        case .lyingHR, .standingHR, .peakHR: 20...250
        case .gapAvg, .gapPeak: -60...150
        case .fatigue, .mood, .soreness, .stress, .sleep: 1...7
        }
    }

    var unit: String {
        switch self {
        case .rmssd: " ms"
        case .lyingHR, .standingHR, .peakHR, .gapAvg, .gapPeak: " bpm"
        default: ""
        }
    }
}

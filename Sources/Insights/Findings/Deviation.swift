import RecoveryCore

/// A T0 statement: today's value of a channel outside the person's rolling baseline (Health Engine README,
/// tier T0: "Your HRV was 12% below baseline."). The baseline is RecoveryCore's norm (the 60 days before
/// today, mean ± 1 SD, today not in its own norm), so the sentence and the light agree on "normal".
public struct Deviation: Sendable, Equatable {
    public enum Side: String, Sendable {
        case below
        case above
    }

    public var channel: Channel
    public var value: Double
    public var baselineMean: Double
    public var baselineSD: Double
    /// Values in the 60-day norm window.
    public var baselineDays: Int
    public var side: Side
    /// (value − mean) / mean × 100, rounded to a whole percent in the sentence.
    public var percent: Double
    /// True when the side is the channel's concerning one (low rMSSD, high lying HR, high gaps, low subjective).
    public var isConcerning: Bool

    public var tier: Tier { .t0 }

    /// "Your rMSSD was 12 % below baseline.", "Your subjective score was 46 % below baseline."
    public var sentence: String {
        let whole = Int(abs(percent).rounded())
        return "Your \(subject) was \(whole) % \(side.rawValue) baseline."
    }

    /// The channel as the subject of a sentence: the subjective channel is the mean of the five scores.
    var subject: String { channel == .subjective ? "subjective score" : channel.label }
}

/// Today's T0 deviations, one per channel whose value today lies outside its norm's ±1 SD band; channels
/// with fewer than `Floors.deviation` (21) values in the norm say nothing. Pure: `today` comes from the caller.
public func deviations(days: [DayRecord], today: LocalDate) -> [Deviation] {
    deviations(readout: Baselines.readout(days: days, today: today))
}

/// The same from a readout already made (what `status` holds).
public func deviations(readout: Readout) -> [Deviation] {
    var out: [Deviation] = []
    for c in readout.channels {
        guard c.normCount >= Floors.deviation, let value = c.todayValue, let mean = c.normMean, let sd = c.normSD,
            mean != 0, abs(value - mean) > sd
        else { continue }
        let side: Deviation.Side = value < mean ? .below : .above
        let concerning =
            (c.channel.concerningDirection == .low && side == .below)
            || (c.channel.concerningDirection == .high && side == .above)
        out.append(
            Deviation(
                channel: c.channel, value: value, baselineMean: mean, baselineSD: sd, baselineDays: c.normCount,
                side: side, percent: (value - mean) / abs(mean) * 100, isConcerning: concerning))
    }
    return out
}

/// Channels whose deviation statement still waits for history ("not enough data yet"), with how many more
/// values each needs in its 60-day norm.
public func deviationsPending(days: [DayRecord], today: LocalDate) -> [Pending] {
    let readout = Baselines.readout(days: days, today: today)
    return readout.channels.compactMap { c in
        guard c.normCount < Floors.deviation else { return nil }
        return Pending(
            analysis: .deviation, subject: c.channel.label, have: c.normCount, need: Floors.deviation,
            moreDays: Floors.deviation - c.normCount,
            sentence: "\(c.channel.label) against baseline: \(c.normCount) of \(Floors.deviation) days")
    }
}

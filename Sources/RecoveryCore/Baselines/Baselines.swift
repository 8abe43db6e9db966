/// Personal baselines and the morning's lights (RecoveryDeck spec §5.4, DESIGN §3; after Couzens' 7-day vs
/// 60-day dashboard).
///
/// Window edges, for the morning being judged (`today`):
/// - acute: the mean of the series' values on the 7 calendar days `today − 6 ... today` (today included: the
///   light shown after a measurement must reflect it). At least 4 values are needed (more than half the week);
///   with fewer the channel is `missing` for the day.
/// - norm: the mean and SD of the values on the 60 calendar days `today − 60 ... today − 1`. Today is not in
///   its own norm: "normal" is what came before the morning being judged, and an unusual morning must not pull
///   the band towards itself. SD is the sample SD (divisor n − 1) of the daily values: the 60 days are a sample
///   of the person's normal. The SD is floored at the series' resolution (`Channel.sdFloor`), which also settles
///   SD = 0. The norm needs at least 14 values of that series; fewer leaves that channel `building`.
/// - building: while fewer than 14 complete days (`DayRecord.isComplete`) lie in the norm window, every channel is
///   `building` except subjective, which uses the absolute fallback on today's mean; the composite is `building`.
///   A long break therefore rebuilds, as the norm window then holds too little of the person.
/// - z = (acute − norm mean) / SD. The light is set by |z| in both directions: the spec keeps the concerning
///   directions "for tips / emphasis, not for ignoring the opposite side". The words name the side, and
///   `isConcerning` says whether it is the concerning one (low rMSSD, high lying HR, high gaps, low subjective).
/// - The edges between the colours are the spec's 1.0 / 1.5 SD unless the caller gives others (`LightEdges`,
///   the `band_edges` setting); the words ("rMSSD low") follow the same yellow edge.
/// - Missing values are absent from both windows: never zero, never carried forward, never interpolated.
public enum Baselines {
    public static let acuteDays = 7
    public static let acuteMinimumValues = 4
    public static let normDays = 60
    public static let normMinimumValues = 14
    public static let buildingCompleteDays = 14
    /// The composite's label (spec §5.4).
    public static let compositeLabel = "rough signal — not medical"

    /// The lights for `today` from the days given (any order; a date given twice counts once, the last wins).
    public static func readout(
        days: some Sequence<DayRecord>, today: LocalDate, edges: LightEdges = .spec
    ) -> Readout {
        var byDay: [Int: DayRecord] = [:]
        for day in days { byDay[day.date.dayNumber] = day }
        let todayNumber = today.dayNumber
        let normRange = (todayNumber - normDays)...(todayNumber - 1)
        let acuteRange = (todayNumber - acuteDays + 1)...todayNumber
        let completeDays = normRange.reduce(0) { $0 + (byDay[$1]?.isComplete == true ? 1 : 0) }
        let building = completeDays < buildingCompleteDays

        var channels: [ChannelReadout] = []
        for channel in Channel.allCases {
            let acuteValues = acuteRange.compactMap { byDay[$0].flatMap(channel.value(in:)) }
            let normValues = normRange.compactMap { byDay[$0].flatMap(channel.value(in:)) }
            let todayValue = byDay[todayNumber].flatMap(channel.value(in:))
            var readout = ChannelReadout(
                channel: channel, state: .missing, todayValue: todayValue,
                acute: acuteValues.count >= acuteMinimumValues ? mean(acuteValues) : nil, acuteCount: acuteValues.count,
                normMean: nil, normSD: nil, normCount: normValues.count, z: nil, edges: edges[channel])
            if normValues.count >= normMinimumValues {
                readout.normMean = mean(normValues)
                readout.normSD = max(sampleSD(normValues), channel.sdFloor)
            }
            if building {
                if channel == .subjective, let todayValue {
                    readout.state = .fallback(TrafficLight(subjectiveMean: todayValue))
                } else {
                    readout.state = .building
                }
            } else if let normMean = readout.normMean, let sd = readout.normSD {
                if let acute = readout.acute {
                    let z = (acute - normMean) / sd
                    readout.z = z
                    readout.state = .lit(edges[channel].light(z: z))
                }
            } else {
                readout.state = .building
            }
            channels.append(readout)
        }
        let composite: Readout.Composite
        if building {
            composite = .building
        } else if let light = TrafficLight.composite(of: channels.compactMap(\.light)) {
            composite = .lit(light)
        } else {
            composite = .missing
        }
        return Readout(today: today, completeDaysInNorm: completeDays, channels: channels, composite: composite)
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

    /// Sample SD (divisor n − 1); 0 for fewer than two values.
    static func sampleSD(_ values: [Double]) -> Double {
        guard values.count >= 2 else { return 0 }
        let m = mean(values)
        let ss = values.reduce(0) { $0 + ($1 - m) * ($1 - m) }
        return (ss / Double(values.count - 1)).squareRoot()
    }
}

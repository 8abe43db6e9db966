import Testing

@testable import RecoveryCore

/// RecoveryDeck spec §5.4 / DESIGN §3: 7-day acute vs 60-day norm ± 1 SD, building, lights, words, composite.
@Suite struct BaselinesTests {
    let today = Fixture.today

    /// Complete days −n ... −1 with rMSSD alternating 50/60 (mean 55) and everything else constant.
    func history(_ n: Int) -> [DayRecord] {
        (1...n).map { Fixture.day(-$0, rmssd: $0 % 2 == 0 ? 50 : 60) }
    }

    @Test("building while < 14 complete days precede today; subjective uses the absolute fallback (spec §5.4)")
    func buildingEdge() {
        let thirteen = Baselines.readout(days: history(13) + [Fixture.day(0, scores: 4)], today: today)
        #expect(thirteen.composite == .building)
        #expect(thirteen[.rmssd].state == .building)
        #expect(thirteen[.subjective].state == .fallback(.yellow))  // mean 4.0: ≥ 3.5 yellow
        let fourteen = Baselines.readout(days: history(14) + [Fixture.day(0)], today: today)
        #expect(fourteen.composite != .building)
        #expect(fourteen.completeDaysInNorm == 14)
    }

    @Test("subjective fallback bands: 5.0 green, 4.8 yellow, 3.5 yellow, 3.4 red (spec §5.4)")
    func subjectiveFallback() {
        #expect(TrafficLight(subjectiveMean: 5.0) == .green)
        #expect(TrafficLight(subjectiveMean: 4.8) == .yellow)
        #expect(TrafficLight(subjectiveMean: 3.5) == .yellow)
        #expect(TrafficLight(subjectiveMean: 3.4) == .red)
        // Through the readout: scores 5,5,5,5,4 → 4.8 → yellow while building.
        let date = today
        let day = DayRecord(date: date, questionnaire: Fixture.questionnaire(date, values: [5, 5, 5, 5, 4]))
        #expect(Baselines.readout(days: [day], today: today)[.subjective].state == .fallback(.yellow))
    }

    @Test("|z| bands: 1.0 green, just over yellow, 1.5 yellow, just over red, both signs (spec §5.4)")
    func zBands() {
        #expect(TrafficLight(z: 1.0) == .green)
        #expect(TrafficLight(z: -1.0) == .green)
        #expect(TrafficLight(z: 1.000001) == .yellow)
        #expect(TrafficLight(z: 1.5) == .yellow)
        #expect(TrafficLight(z: -1.5) == .yellow)
        #expect(TrafficLight(z: 1.500001) == .red)
        #expect(TrafficLight(z: -2) == .red)
    }

    @Test("norm excludes today, uses 60 days before it, SD with n − 1 (spec §5.4 window edges)")
    func normWindow() {
        // 14 days alternating 50/60: mean 55, sample SD √(14·25/13) = 5.188745216627708 (population would be 5).
        // Day −61 (value 500) is outside the 60-day norm; today's 10 is not in its own norm.
        let days = history(14) + [Fixture.day(-61, rmssd: 500), Fixture.day(0, rmssd: 10)]
        let r = Baselines.readout(days: days, today: today)[.rmssd]
        #expect(r.normCount == 14)
        #expect(r.normMean == 55)
        #expect(abs(r.normSD! - (14.0 * 25.0 / 13.0).squareRoot()) < 1e-12)
        // 60 days back is inside: day −60 counts.
        let withSixty = Baselines.readout(days: days + [Fixture.day(-60, rmssd: 55)], today: today)[.rmssd]
        #expect(withSixty.normCount == 15)
    }

    @Test("a series with 13 values in its norm stays building after the baselines are ready; 14 lights it (spec §5.4)")
    func seriesNormFloor() {
        // 20 complete days before today (baselines ready); lying HR only on the last `n` of them, the rest skipped
        // the orthostatic part (complete, but no lying HR: missing, not zero).
        func lying(withValues n: Int) -> ChannelReadout {
            let days = (1...20).map { Fixture.day(-$0, lying: $0 <= n ? Double(54 + $0 % 3) : nil) }
            return Baselines.readout(days: days + [Fixture.day(0)], today: today)[.lyingHR]
        }
        let thirteen = lying(withValues: 13)
        #expect(thirteen.normCount == 13)
        #expect(thirteen.state == .building)
        #expect(thirteen.words == "lying HR building baseline")
        let fourteen = lying(withValues: 14)
        #expect(fourteen.normCount == 14)
        #expect(fourteen.light != nil)
        // No orthostatic values at all: those channels build while rMSSD and subjective are lit, and the composite
        // is made of the lit ones.
        let skipped = (1...20).map { Fixture.day(-$0, lying: nil) } + [Fixture.day(0)]
        let readout = Baselines.readout(days: skipped, today: today)
        #expect(!readout.isBuilding)
        #expect(readout[.rmssd].light != nil && readout[.subjective].light != nil)
        #expect(readout[.gapPeak].state == .building && readout[.gapAvg].state == .building)
        let lit = [readout[.rmssd].light!, readout[.subjective].light!]
        #expect(readout.composite == .lit(TrafficLight.composite(of: lit)!))
    }

    @Test("acute is today and the 6 days before, needs 4 values; a missing day is absent, not zero (spec §5.4)")
    func acuteWindow() {
        // Norm: days −40...−7 alternating 50/70 (mean 60, SD ≈ 10.15) plus the acute days before today set below.
        var days = (7...40).map { Fixture.day(-$0, rmssd: $0 % 2 == 0 ? 50 : 70) }
        // Acute: today 40, −1 50, −2 missing (no measurement), −3 60; day −7 (70, from above) is outside the week.
        days += [Fixture.day(0, rmssd: 40), Fixture.day(-1, rmssd: 50), Fixture.day(-3, rmssd: 60)]
        days.append(
            DayRecord(date: today.adding(days: -2), questionnaire: Fixture.questionnaire(today.adding(days: -2))))
        let three = Baselines.readout(days: days, today: today)[.rmssd]
        #expect(three.acuteCount == 3)
        #expect(three.acute == nil)
        #expect(three.state == .missing)
        days.append(Fixture.day(-6, rmssd: 70))
        let four = Baselines.readout(days: days, today: today)[.rmssd]
        #expect(four.acuteCount == 4)
        // (40 + 50 + 60 + 70) / 4 = 55: the missing day −2 is absent (a zero would give 44, a carried 50 would give 54)
        // and day −7 is outside (it would give 58).
        #expect(four.acute == 55)
        #expect(four.light != nil)
    }

    @Test("low rMSSD is red and concerning; equally high rMSSD is red too, named high, not concerning (spec §5.4)")
    func directions() {
        // Norm: 40 days alternating 50/70 (days −46...−7) plus the acute week's days −6...−1 (the norm is the 60
        // days before today). Low case: a week of 25 → norm mean (2400 + 150)/46 = 55.43, SD ≈ 15.2, z ≈ −2.0.
        // High case: a week of 95 → mean 64.57, same SD, z ≈ +2.0.
        let norm = (7...46).map { Fixture.day(-$0, rmssd: $0 % 2 == 0 ? 50 : 70) }
        let low = Baselines.readout(days: norm + (0...6).map { Fixture.day(-$0, rmssd: 25) }, today: today)[.rmssd]
        #expect(abs(low.z! + 2.0) < 0.05)
        #expect(low.light == .red)
        #expect(low.words == "rMSSD low")
        #expect(low.isConcerning)
        let high = Baselines.readout(days: norm + (0...6).map { Fixture.day(-$0, rmssd: 95) }, today: today)[.rmssd]
        #expect(abs(high.z! - 2.0) < 0.05)
        #expect(high.light == .red)
        #expect(high.words == "rMSSD high")
        #expect(!high.isConcerning)
        // Lying HR: high is the concerning side.
        let hot = Baselines.readout(
            days: (7...46).map { Fixture.day(-$0, lying: $0 % 2 == 0 ? 50 : 54) }
                + (0...6).map { Fixture.day(-$0, lying: 62) },
            today: today)[.lyingHR]
        #expect(hot.words == "lying HR high")
        #expect(hot.isConcerning)
        #expect(hot.light == .red)
    }

    @Test("SD of 0 is floored at the series' resolution, so one step is not an infinite z (spec §5.4)")
    func zeroSD() {
        // Norm: lying HR 55 on every one of days −26...−1 → SD 0, floored at 1 bpm. Acute: days −6...−1 at 55 and
        // today 62 → (6·55 + 62)/7 = 56 → z = 1 → green; today 62.07 → z = 1.01 → yellow.
        let norm = (1...26).map { Fixture.day(-$0, lying: 55) }
        let r = Baselines.readout(days: norm + [Fixture.day(0, lying: 62)], today: today)[.lyingHR]
        #expect(r.normSD == 1)
        #expect(abs(r.z! - 1) < 1e-12)
        #expect(r.light == .green)
        let over = Baselines.readout(days: norm + [Fixture.day(0, lying: 62.07)], today: today)[.lyingHR]
        #expect(over.light == .yellow)
    }

    @Test("composite: most frequent light wins, a tie for most is yellow, no lights no composite (spec §5.4)")
    func composite() {
        let cases: [([TrafficLight], TrafficLight?)] = [
            ([.green, .green, .green, .yellow, .red], .green),
            ([.green, .green, .yellow, .red, .red], .yellow),
            ([.red, .red, .red, .green, .green], .red),
            ([.green, .yellow, .red], .yellow),
            ([.green, .green, .red], .green),
            ([.red], .red),
            ([.green, .red], .yellow),
            ([], nil),
        ]
        for (lights, expected) in cases { #expect(TrafficLight.composite(of: lights) == expected, "\(lights)") }
        #expect(Baselines.compositeLabel == "rough signal — not medical")
    }

    @Test("orthostatic channels count only completed tests; a skipped morning is missing there, not zero")
    func skippedOrthostaticIsMissing() {
        let date = today
        let skipped = DayRecord(
            date: date, questionnaire: Fixture.questionnaire(date),
            measurement: Fixture.measurement(date, rmssd: 60, status: .skipped))
        #expect(skipped.isComplete)
        #expect(Channel.lyingHR.value(in: skipped) == nil)
        #expect(Channel.gapPeak.value(in: skipped) == nil)
        #expect(Channel.rmssd.value(in: skipped) == 60)
        let failed = DayRecord(
            date: date, questionnaire: Fixture.questionnaire(date),
            measurement: Fixture.measurement(date, rmssd: 60, quality: .fail(.tooFewBeats)))
        #expect(Channel.rmssd.value(in: failed) == nil)
    }

    @Test("a full readout lights all five channels in keypad order and the composite from them")
    func fullReadout() {
        let r = Baselines.readout(days: history(30) + [Fixture.day(0)], today: today)
        #expect(r.channels.map(\.channel) == Channel.allCases)
        #expect(r.channels.allSatisfy { $0.light != nil })
        #expect(r.composite == .lit(TrafficLight.composite(of: r.channels.compactMap(\.light))!))
    }
}

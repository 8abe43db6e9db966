import Foundation
import RecoveryCore
import Testing

@testable import Insights

/// The "Not like you" flag on fixed seeded series: a steady person (lying HR 55 ± 2 bpm, ln rMSSD 4.0 ± 0.1,
/// independent day to day), with episodes planted where a test says.
@Suite("Not like you: a CuSum on lying HR up and ln rMSSD down against the person's own 60-day normal")
struct NotLikeYouTests {
    /// `count` days of the steady person; `shift(t)` adds (bpm, ln) on day t; `missing` days have no morning.
    func person(
        seed: UInt64, count: Int = 120, missing: Set<Int> = [], shift: (Int) -> (Double, Double) = { _ in (0, 0) }
    ) -> [NotLikeYou.Day] {
        var r = SeededRandom(seed: seed)
        return (0..<count).map { t in
            let hr = r.normal(mean: 55, sd: 2)
            let ln = r.normal(mean: 4.0, sd: 0.1)
            guard !missing.contains(t) else { return NotLikeYou.Day(lyingHR: nil, rmssd: nil) }
            let (dh, dl) = shift(t)
            return NotLikeYou.Day(lyingHR: (hr + dh).rounded(), rmssd: exp(ln - dl))
        }
    }

    func episode(_ days: Range<Int>, hr: Double, ln: Double) -> (Int) -> (Double, Double) {
        { t in days.contains(t) ? (hr, ln) : (0, 0) }
    }

    /// The defaults buy about two false flags a person-year on the calibration's people (AR(1) days,
    /// training blocks; docs/not-like-you.md); these independent days see fewer, 3 in these 5.8 person-years.
    @Test("steady people: at most 6 flags in 20 people × 106 days after the normal is built")
    func quiet() {
        var flags: [String] = []
        for seed in 1...20 as ClosedRange<UInt64> {
            let result = NotLikeYou.run(person(seed: seed))
            flags += result.indices.filter { result[$0].isNewFlag }.map { "seed \(seed) day \($0)" }
        }
        #expect(flags.count <= 6, "\(flags)")
    }

    @Test("the first 14 mornings build the normal; nothing is said before")
    func building() {
        let result = NotLikeYou.run(person(seed: 3))
        #expect(result.prefix(14).allSatisfy { $0.status == .building })
        #expect(result[14].status == .normal)
    }

    @Test("lying HR +7 bpm and ln rMSSD −0.3 for 6 days: one flag by the third morning, words with the sizes")
    func plantedEpisode() throws {
        for seed in 1...10 as ClosedRange<UInt64> {
            let result = NotLikeYou.run(person(seed: seed, shift: episode(80..<86, hr: 7, ln: 0.3)))
            let flags = result.indices.filter { result[$0].isNewFlag && (60..<95).contains($0) }
            #expect(flags.count == 1, "seed \(seed): flags on \(flags)")
            let day = try #require(flags.first)
            #expect((81...82).contains(day), "seed \(seed): flagged on day \(day)")
            let raised = try #require(result[day].episode)
            #expect(raised.firstDay >= 79)
            // The sizes over the episode's six mornings (a day or two of them, as on the flag's day, are too few
            // to hold the ln rMSSD to ±0.12 against mornings whose SD is 0.1).
            let e = try #require(result[85].episode)
            #expect(e.firstDay >= 79 && e.firstDay <= 80)
            let above = try #require(e.lyingHRAbove)
            let below = try #require(e.lnRMSSDBelow)
            #expect(abs(above - 7) < 3)
            #expect(abs(below - 0.3) < 0.12)
            // Back inside the normal after the episode: over within a few mornings.
            #expect(result[86...].contains { $0.status == .normal }, "seed \(seed)")
            #expect(result[92..<100].allSatisfy { $0.status == .normal }, "seed \(seed)")
        }
    }

    @Test("the sentence: the mornings, both sizes, and that it is not a diagnosis")
    func sentence() {
        let e = NotLikeYou.Episode(
            firstDay: 10, flaggedDay: 12, mornings: 3, days: 3, lyingHRAbove: 6.2, lnRMSSDBelow: 0.214)
        #expect(
            e.sentence
                == "the last 3 mornings: lying HR 6 bpm above your normal and ln rMSSD 0.21 below it — a pattern "
                + "that often comes with illness, hard training or poor sleep; not a diagnosis")
        let gappy = NotLikeYou.Episode(
            firstDay: 10, flaggedDay: 13, mornings: 3, days: 4, lyingHRAbove: nil, lnRMSSDBelow: 0.3)
        #expect(gappy.sentence.hasPrefix("3 of the last 4 mornings: ln rMSSD 0.30 below your normal — "))
        #expect(e.tier == .t0)
    }

    @Test("both channels together weigh more than either alone: a moderate shift in both flags, in one does not")
    func togetherWeighsMore() {
        var both = 0
        var hrOnly = 0
        var lnOnly = 0
        for seed in 1...10 as ClosedRange<UInt64> {
            let flagged = { (r: [NotLikeYou.Morning]) in r[80...].contains { $0.isNewFlag } }
            // 2 SD in each channel for 3 mornings.
            let run = { (hr: Double, ln: Double) in
                flagged(NotLikeYou.run(self.person(seed: seed, shift: self.episode(80..<83, hr: hr, ln: ln))))
            }
            if run(4, 0.2) { both += 1 }
            if run(4, 0) { hrOnly += 1 }
            if run(0, 0.2) { lnOnly += 1 }
        }
        #expect(both >= 8, "both: \(both) of 10")
        #expect(hrOnly <= 2 && lnOnly <= 2, "lying HR alone \(hrOnly), ln rMSSD alone \(lnOnly) of 10")
    }

    @Test("missing mornings stay missing: the CuSum waits over a gap, and the episode is still found")
    func missingMornings() throws {
        let missing: Set<Int> = [40, 41, 42, 81, 83]
        let result = NotLikeYou.run(person(seed: 5, missing: missing, shift: episode(80..<87, hr: 7, ln: 0.3)))
        for t in missing.sorted() where t > 14 {
            #expect(result[t].cusum == result[t - 1].cusum, "day \(t)")
            #expect(result[t].zLyingHR == nil && result[t].zLnRMSSD == nil)
        }
        let day = try #require(result.indices.first { result[$0].isNewFlag })
        #expect((80...84).contains(day))
        let e = try #require(result[day].episode)
        #expect(e.mornings < e.days)  // the gap shows in "N of the last M mornings"
    }

    @Test("one wild morning alone is not an episode; a long episode is flagged once")
    func oneMorningAndLongEpisode() {
        let wild = NotLikeYou.run(person(seed: 8, shift: episode(70..<71, hr: 25, ln: 1.0)))
        #expect(!wild[60...].contains { $0.isNewFlag })
        let long = NotLikeYou.run(person(seed: 8, shift: episode(70..<90, hr: 6, ln: 0.25)))
        #expect(long.filter(\.isNewFlag).count == 1)
        #expect(long[75..<90].allSatisfy { $0.status == .flagged })
    }

    @Test("one good morning in the middle of an illness ends the flag but does not tell it again")
    func goodMorningInTheMiddle() {
        // Eight days out of the normal with day 84 a good one (4 bpm lower, ln rMSSD 0.2 higher than the usual):
        // the flag ends on 84 and is raised again within the week after. It resumes the episode (flagged, not
        // new); without resuming it was told twice.
        func shift(_ t: Int) -> (Double, Double) { t == 84 ? (-4, -0.2) : (80..<88).contains(t) ? (8, 0.35) : (0, 0) }
        for seed in 1...6 as ClosedRange<UInt64> {
            let result = NotLikeYou.run(person(seed: seed, shift: shift))
            let flags = result.indices.filter { result[$0].isNewFlag && (60..<100).contains($0) }
            #expect(flags.count == 1, "seed \(seed): new flags on \(flags)")
            #expect(result[86].status == .flagged, "seed \(seed): flagged again after it")
            var told = NotLikeYou.Parameters.default
            told.resumeWithinDays = 0
            let twice = NotLikeYou.run(person(seed: seed, shift: shift), parameters: told)
            #expect(twice.indices.filter { twice[$0].isNewFlag && (60..<100).contains($0) }.count == 2, "seed \(seed)")
        }
    }
}

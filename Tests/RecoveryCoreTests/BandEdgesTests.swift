import Testing

@testable import RecoveryCore

/// The lights' edges as a value (RecoveryDeck spec §5.4: 1.0 / 1.5 SD by default, tunable).
struct BandEdgesTests {
    @Test("edges are 0 < yellow < red ≤ 3; the light is green to the yellow edge, yellow to the red, red beyond")
    func edges() throws {
        #expect(BandEdges(yellow: 1.0, red: 1.5) == .spec)
        for (a, b) in [(0.0, 1.0), (-1, 1), (1.5, 1.0), (1, 1), (1, 3.01), (.nan, 2), (1, .infinity)] {
            #expect(BandEdges(yellow: a, red: b) == nil, "\(a),\(b)")
        }
        let e = try #require(BandEdges(yellow: 1.2, red: 1.8))
        #expect(e.light(z: 1.2) == .green)
        #expect(e.light(z: -1.200001) == .yellow)
        #expect(e.light(z: 1.8) == .yellow)
        #expect(e.light(z: -1.800001) == .red)
        #expect(try #require(BandEdges(yellow: 2.5, red: 3)).light(z: 3.0) == .yellow)
        // The spec's edges give exactly what TrafficLight(z:) always gave.
        for z in stride(from: -3.0, through: 3.0, by: 0.05) {
            #expect(BandEdges.spec.light(z: z) == TrafficLight(z: z))
        }
    }

    @Test("the text form: A,B for all, channel=A,B for one over the rest, ; joins, spec resets; all or nothing")
    func text() throws {
        #expect(BandEdges(text: "1,1.5") == .spec)
        #expect(BandEdges(text: " 1.25 , 2 ")?.description == "1.25,2.0")
        for bad in ["", "1", "1,2,3", "1,,2", "a,2", "1e0,2", "-1,2", "0x1,2", "2,1"] {
            #expect(BandEdges(text: bad) == nil, "\(bad)")
        }
        let all = try LightEdges.spec.applying("1.2,1.8").get()
        #expect(all.isUniform && all[.gapAvg] == BandEdges(yellow: 1.2, red: 1.8))
        #expect(all.description == "1.2,1.8")
        let one = try all.applying("lying-hr=1.0,2.0; rmssd=0.8,1.2").get()
        #expect(one[.lyingHR] == BandEdges(yellow: 1, red: 2) && one[.rmssd] == BandEdges(yellow: 0.8, red: 1.2))
        #expect(one[.subjective] == BandEdges(yellow: 1.2, red: 1.8))
        #expect(one.description == "rmssd=0.8,1.2;lyingHR=1.0,2.0;gapPeak=1.2,1.8;gapAvg=1.2,1.8;subjective=1.2,1.8")
        #expect(LightEdges(setting: one.description) == one)
        #expect(try one.applying("spec").get() == .spec)
        #expect(one.applying("rmssd=1,2;pulse=1,2") == .failure(.unknownChannel("pulse")))
        #expect(one.applying("1,2;rmssd=1,2") == .failure(.malformed("1,2")))
        #expect(LightEdges(setting: "rmssd=2,1") == nil)
    }

    @Test("the readout uses the edges given: z −1.09 is yellow at 1.0 / 1.5, green at 1.2 / 1.8, red at 0.5 / 1.05")
    func readoutEdges() throws {
        let today = Fixture.today
        // Norm −60…−8: rMSSD alternating 50 / 70; −7…0: 47. By hand: norm mean 58.3167, SD 10.3441 (n − 1),
        // 7-day mean 47, z = −1.0940. Every other channel is constant: SD floored, z 0, green.
        let days = (-90...0).map { o in Fixture.day(o, rmssd: o >= -7 ? 47 : (o % 2 == 0 ? 50 : 70)) }
        let spec = Baselines.readout(days: days, today: today)[.rmssd]
        #expect(abs(spec.z! - -1.0940) < 5e-5)
        #expect(spec.light == .yellow && spec.words == "rMSSD low")
        let wide = Baselines.readout(days: days, today: today, edges: try LightEdges.spec.applying("1.2,1.8").get())
        #expect(wide[.rmssd].light == .green && wide[.rmssd].words == "rMSSD normal" && wide[.rmssd].deviation == nil)
        #expect(wide.composite == .lit(.green))
        let narrow = Baselines.readout(
            days: days, today: today, edges: try LightEdges.spec.applying("rmssd=0.5,1.05").get())
        #expect(narrow[.rmssd].light == .red && narrow[.rmssd].isConcerning)
        #expect(narrow[.lyingHR].edges == .spec)
    }

    @Test("the back-test counts each day's lights under both edges and lists the days that change, oldest first")
    func backTest() throws {
        let today = Fixture.today
        // The history above without 03-27 (not stored, so no light that day). By hand the last 7 days' rMSSD |z|
        // are 0.4696, 0.5042, –, 0.7818, 1.1154, 1.1533, 1.1147 (03-25 … 03-31): three yellow at 1.0, none at 1.2.
        let days = (-90...0).filter { $0 != -4 }.map { o in
            Fixture.day(o, rmssd: o >= -7 ? 47 : (o % 2 == 0 ? 50 : 70))
        }
        let trial = try LightEdges.spec.applying("1.2,1.8").get()
        let t = LightsBackTest(days: days, through: today, count: 7, current: .spec, trial: trial)
        #expect(t.first.iso == "2026-03-25" && t.last.iso == "2026-03-31")
        let rmssd = LightsBackTest.Series.channel(.rmssd)
        #expect(t.currentCounts[rmssd]!.unlit == 1 && t.trialCounts[rmssd]!.unlit == 1)
        #expect(t.currentCounts[rmssd]!.yellow == 3 && t.trialCounts[rmssd]!.yellow == 0)
        #expect(t.trialCounts[rmssd]!.green == 6)
        #expect(t.currentCounts[.composite]!.green == 6 && t.currentCounts[.composite]!.unlit == 1)
        #expect(
            t.changes.map { "\($0.date.iso) \($0.series) \($0.from)→\($0.to)" } == [
                "2026-03-29 rmssd yellow→green", "2026-03-30 rmssd yellow→green", "2026-03-31 rmssd yellow→green",
            ])
        let same = LightsBackTest(days: days, through: today, count: 60, current: trial, trial: trial)
        #expect(same.changes.isEmpty && same.currentCounts == same.trialCounts)
    }
}

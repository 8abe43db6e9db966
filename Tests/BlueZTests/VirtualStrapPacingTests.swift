import HeartRateProtocol
import Testing

@testable import h10sim

/// The virtual strap's clock (DESIGN §5 "h10sim"): about one notification per second carrying the
/// RR that ended since the previous one; --speed changes when notifications come, never the RR.
@Suite struct VirtualStrapPacingTests {
    /// RR of 750, 1000 and 1250 ms (768, 1024, 1280 in 1/1024 s), repeated.
    static let file: [UInt16] = Array(repeating: [768, 1024, 1280], count: 20).flatMap { $0 }

    static func run(speed: Double, heartRateOnly: Bool = false, subscribedAt: (Int64) -> Bool = { _ in true })
        -> (notes: [(atMs: Int64, m: HeartRateMeasurement)], pacer: NotificationPacer<RRFileReplay>)
    {
        var pacer = NotificationPacer(source: RRFileReplay(intervals: file), speed: speed, heartRateOnly: heartRateOnly)
        pacer.start(atMs: 10_000)
        var notes: [(Int64, HeartRateMeasurement)] = []
        while !pacer.isFinished, let due = pacer.nextDueMs {
            if let m = pacer.advance(subscribed: subscribedAt(due), rrCapacity: 9) { notes.append((due, m)) }
        }
        return (notes, pacer)
    }

    @Test("DESIGN §5 h10sim: every RR is sent once, in order, about one notification a second")
    func everyRRIsSentOnceInOrderAtAboutOneNotificationPerSecond() {
        let (notes, pacer) = Self.run(speed: 1)
        #expect(notes.flatMap(\.m.rrIntervals) == Self.file)
        #expect(pacer.lostIntervals == 0)
        // 60 beats of 1 s on average: 60 notifications, one per wall second from the start.
        #expect(notes.count == 60)
        #expect(notes.first?.atMs == 11_000 && notes.last?.atMs == 70_000)
        #expect(notes.allSatisfy { $0.m.rrIntervals.count <= 2 }, "0–2 RR per second at 60 bpm")
    }

    @Test("DESIGN §5 h10sim: --speed brings notifications sooner with the same RR")
    func speedBringsNotificationsSoonerWithTheSameRR() {
        let (notes, _) = Self.run(speed: 4)
        #expect(notes.flatMap(\.m.rrIntervals) == Self.file)
        #expect(notes.first?.atMs == 10_250 && notes.last?.atMs == 25_000, "a quarter of the wall time")
        let slow = Self.run(speed: 1).notes.map(\.m)
        #expect(notes.map(\.m) == slow, "the same measurements, only sooner")
    }

    @Test("h10sim: the BPM is the rate over the last four beats")
    func theBPMIsTheStrapsSmoothedRateOverTheLastFourBeats() {
        let notes = Self.run(speed: 1).notes.map(\.m.beatsPerMinute)
        // Beats end at 0.75, 1.75, 3.0, 3.75 s: one, two, three, then four beats are averaged.
        // 750 ms → 80; (750 + 1000) / 2 → 69; 1000 → 60; (768 + 1024 + 1280 + 768) / 4 = 937.5 ms → 64.
        #expect(Array(notes.prefix(4)) == [80, 69, 60, 64])
    }

    @Test("DESIGN §5 h10sim drop-out: beats ending while nobody is subscribed are lost")
    func beatsEndingWhileNobodyIsSubscribedAreLostLikeARealStrapLosesThem() {
        // A drop-out from 20 s to 30 s of wall time (10 s after the start to 20 s).
        let (notes, pacer) = Self.run(speed: 1) { !(20_000..<30_000).contains($0) }
        let received = notes.flatMap(\.m.rrIntervals)
        #expect(pacer.lostIntervals == 10, "ten seconds of beats at 60 bpm")
        #expect(received.count + pacer.lostIntervals == Self.file.count)
        #expect(Array(received.prefix(9)) == Array(Self.file.prefix(9)))
        #expect(Array(received.suffix(41)) == Array(Self.file.suffix(41)))
    }

    @Test("DESIGN §5 h10sim --hr-only: notifications carry no RR at all")
    func heartRateOnlyModeSendsNoRRAtAll() {
        let (notes, _) = Self.run(speed: 1, heartRateOnly: true)
        #expect(!notes.isEmpty && notes.allSatisfy { $0.m.rrIntervals.isEmpty && $0.m.beatsPerMinute > 0 })
    }

    @Test("Vol 3 Part F §3.4.7.1: RR beyond one notification's ATT_MTU are carried to the next")
    func moreRRThanOneNotificationHoldsAreCarriedToTheNext() {
        var pacer = NotificationPacer(
            source: RRFileReplay(intervals: Array(repeating: 300, count: 40)), speed: 1, heartRateOnly: false)
        pacer.start(atMs: 0)
        var counts: [Int] = []
        while !pacer.isFinished {
            counts.append(pacer.advance(subscribed: true, rrCapacity: 2)?.rrIntervals.count ?? 0)
        }
        #expect(counts.allSatisfy { $0 <= 2 })
        #expect(counts.reduce(0, +) == 40)
    }

    @Test("Spec §4.1: RR file lines are milliseconds, quantised to the strap's 1/1024 s")
    func rrFileLinesAreMillisecondsQuantisedToTheStrapsUnit() throws {
        // RecoveryDeck spec §4.1: rr_raw = rr_ms × 1024 / 1000, rounded.
        let parsed = try RRFileReplay.parse("# comment\n1000\n\n 999.5 \r\n300.0\n1999.9\n")
        #expect(parsed == [1024, 1023, 307, 2048])
    }

    @Test("h10sim: a bad RR file line is refused naming its number")
    func aBadRRFileLineIsNamedWithItsNumber() {
        #expect(throws: SimulatorError.self) { try RRFileReplay.parse("800\nabc\n") }
        do {
            _ = try RRFileReplay.parse("800\n900\n-5\n")
        } catch {
            #expect(error.description.contains("Line 3"))
        }
        #expect(throws: SimulatorError.self) { try RRFileReplay.parse("# only a comment\n") }
    }

    @Test("DESIGN §5 h10sim --artifacts: seeded, and missed or split beats keep the total time")
    func artifactsAreSeededAndKeepTheTotalTimeOfMissedBeats() {
        var a = RRFileReplay(intervals: Self.file, artifacts: ArtifactInjector(rate: 0.2, seed: 9))
        var b = RRFileReplay(intervals: Self.file, artifacts: ArtifactInjector(rate: 0.2, seed: 9))
        var outA: [UInt16] = []
        var outB: [UInt16] = []
        while let rr = a.nextRR() { outA.append(rr) }
        while let rr = b.nextRR() { outB.append(rr) }
        #expect(outA == outB, "same seed, same artifacts")
        #expect(outA != Self.file, "a rate of 0.2 over 60 beats changes some")
        #expect(
            outA.reduce(0) { $0 + Int($1) } == Self.file.reduce(0) { $0 + Int($1) },
            "merged and split beats keep the time")
    }

    @Test("h10sim options parse, and bad ones are refused with one sentence")
    func optionsParseAndRefuseWithOneSentence() throws {
        let o = try SimulatorOptions.parse(["--adapter", "hci1", "--dropout", "20:8", "--speed", "4", "--hr-only"])
        #expect(o.adapter == "hci1" && o.dropouts == [.init(atS: 20, forS: 8)] && o.speed == 4 && o.heartRateOnly)
        #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--dropout", "20"]) }
        #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--adapter", "eth0"]) }
        #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--speed", "0"]) }
        #expect(
            SimulatorOptions().advertisedName.hasPrefix("Polar H10 ") && SimulatorOptions().advertisedName.count == 18)
    }

    @Test("Core 5.3 Vol 6 Part B §1.3.2.1: --static-address takes only a static random address")
    func staticAddressMustHaveItsTwoTopBitsSet() throws {
        let o = try SimulatorOptions.parse(["--static-address", "C4:11:22:33:44:55"])
        #expect(o.staticAddress == BluetoothAddress("C4:11:22:33:44:55"))
        #expect(SimulatorOptions().staticAddress == nil, "the controller's public address by default")
        for bad in ["00:11:22:33:44:55", "84:11:22:33:44:55", "C4:11:22"] {
            #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--static-address", bad]) }
        }
    }

    @Test("DESIGN §5 h10sim: the synthetic heart is seeded, and standing raises the rate within 10–15 s")
    func syntheticBeatsAreSeededAndStandingRaisesTheRate() {
        func beats(seed: UInt64, standAtMs: Int64?, seconds: Int64) -> [UInt16] {
            var source = SyntheticBeats(seed: seed, day: 3, standAtMs: standAtMs, artifactRate: 0)
            var out: [UInt16] = []
            var elapsedMs: Int64 = 0
            while elapsedMs < seconds * 1000, let rr = source.nextRR() {
                out.append(rr)
                elapsedMs += Int64(rr) * 1000 / 1024
            }
            return out
        }
        #expect(beats(seed: 4, standAtMs: nil, seconds: 120) == beats(seed: 4, standAtMs: nil, seconds: 120))
        #expect(beats(seed: 4, standAtMs: nil, seconds: 120) != beats(seed: 5, standAtMs: nil, seconds: 120))
        // Lying for 60 s, then standing: the mean RR 10–15 s after standing is well below the lying mean
        // (an orthostatic rise of at least 10 bpm at a resting rate near 60).
        func meanMs(_ rr: [UInt16], from: Int64, to: Int64) -> Double {
            var t: Int64 = 0
            var picked: [Double] = []
            for raw in rr {
                t += Int64(raw) * 1000 / 1024
                if t >= from && t < to { picked.append(Double(raw) * 1000 / 1024) }
            }
            return picked.reduce(0, +) / Double(max(1, picked.count))
        }
        let standing = beats(seed: 4, standAtMs: 60_000, seconds: 120)
        let lying = meanMs(standing, from: 30_000, to: 60_000)
        let peak = meanMs(standing, from: 70_000, to: 75_000)
        #expect(60_000 / peak - 60_000 / lying >= 10, "lying \(lying) ms, 10–15 s after standing \(peak) ms")
    }
}

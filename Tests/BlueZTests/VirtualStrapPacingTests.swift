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

    @Test func everyRRIsSentOnceInOrderAtAboutOneNotificationPerSecond() {
        let (notes, pacer) = Self.run(speed: 1)
        #expect(notes.flatMap(\.m.rrIntervals) == Self.file)
        #expect(pacer.lostIntervals == 0)
        // 60 beats of 1 s on average: 60 notifications, one per wall second from the start.
        #expect(notes.count == 60)
        #expect(notes.first?.atMs == 11_000 && notes.last?.atMs == 70_000)
        #expect(notes.allSatisfy { $0.m.rrIntervals.count <= 2 }, "0–2 RR per second at 60 bpm")
    }

    @Test func speedBringsNotificationsSoonerWithTheSameRR() {
        let (notes, _) = Self.run(speed: 4)
        #expect(notes.flatMap(\.m.rrIntervals) == Self.file)
        #expect(notes.first?.atMs == 10_250 && notes.last?.atMs == 25_000, "a quarter of the wall time")
        let slow = Self.run(speed: 1).notes.map(\.m)
        #expect(notes.map(\.m) == slow, "the same measurements, only sooner")
    }

    @Test func theBPMIsTheStrapsSmoothedRateOverTheLastFourBeats() {
        let notes = Self.run(speed: 1).notes.map(\.m.beatsPerMinute)
        // Beats end at 0.75, 1.75, 3.0, 3.75 s: one, two, three, then four beats are averaged.
        // 750 ms → 80; (750 + 1000) / 2 → 69; 1000 → 60; (768 + 1024 + 1280 + 768) / 4 = 937.5 ms → 64.
        #expect(Array(notes.prefix(4)) == [80, 69, 60, 64])
    }

    @Test func beatsEndingWhileNobodyIsSubscribedAreLostLikeARealStrapLosesThem() {
        // A drop-out from 20 s to 30 s of wall time (10 s after the start to 20 s).
        let (notes, pacer) = Self.run(speed: 1) { !(20_000..<30_000).contains($0) }
        let received = notes.flatMap(\.m.rrIntervals)
        #expect(pacer.lostIntervals == 10, "ten seconds of beats at 60 bpm")
        #expect(received.count + pacer.lostIntervals == Self.file.count)
        #expect(Array(received.prefix(9)) == Array(Self.file.prefix(9)))
        #expect(Array(received.suffix(41)) == Array(Self.file.suffix(41)))
    }

    @Test func heartRateOnlyModeSendsNoRRAtAll() {
        let (notes, _) = Self.run(speed: 1, heartRateOnly: true)
        #expect(!notes.isEmpty && notes.allSatisfy { $0.m.rrIntervals.isEmpty && $0.m.beatsPerMinute > 0 })
    }

    @Test func moreRRThanOneNotificationHoldsAreCarriedToTheNext() {
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

    @Test func rrFileLinesAreMillisecondsQuantisedToTheStrapsUnit() throws {
        // RecoveryDeck spec §4.1: rr_raw = rr_ms × 1024 / 1000, rounded.
        let parsed = try RRFileReplay.parse("# comment\n1000\n\n 999.5 \r\n300.0\n1999.9\n")
        #expect(parsed == [1024, 1023, 307, 2048])
    }

    @Test func aBadRRFileLineIsNamedWithItsNumber() {
        #expect(throws: SimulatorError.self) { try RRFileReplay.parse("800\nabc\n") }
        do {
            _ = try RRFileReplay.parse("800\n900\n-5\n")
        } catch {
            #expect(error.description.contains("Line 3"))
        }
        #expect(throws: SimulatorError.self) { try RRFileReplay.parse("# only a comment\n") }
    }

    @Test func artifactsAreSeededAndKeepTheTotalTimeOfMissedBeats() {
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

    @Test func optionsParseAndRefuseWithOneSentence() throws {
        let o = try SimulatorOptions.parse(["--adapter", "hci1", "--dropout", "20:8", "--speed", "4", "--hr-only"])
        #expect(o.adapter == "hci1" && o.dropouts == [.init(atS: 20, forS: 8)] && o.speed == 4 && o.heartRateOnly)
        #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--dropout", "20"]) }
        #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--adapter", "eth0"]) }
        #expect(throws: SimulatorError.self) { try SimulatorOptions.parse(["--speed", "0"]) }
        #expect(
            SimulatorOptions().advertisedName.hasPrefix("Polar H10 ") && SimulatorOptions().advertisedName.count == 18)
    }
}

import LocalClock
import Panel
import Platform
import Store
import Testing

@testable import Appliance
@testable import Simulation
@testable import RecoveryCore

/// The daemon's parts on their own: the virtual strap, the pattern conversion, the stepped clock.
struct DeckPartsTests {
    static let day = LocalDate(year: 2026, month: 3, day: 10)!

    /// Drives a virtual strap on a hand-moved clock for `seconds`, returning its events with times.
    static func drive(_ strap: VirtualStrap, from start: Int64, seconds: Int64) -> [(Int64, StrapEvent)] {
        var events: [(Int64, StrapEvent)] = strap.connect(to: StrapAddress(address: nil), nowMs: start).map { (start, $0) }
        var now = start
        while let next = strap.nextDeadlineMs, next <= start + seconds * 1000 {
            now = next
            events += strap.onDeadline(nowMs: now).map { (now, $0) }
        }
        return events
    }

    @Test(
        "The virtual strap connects after its delay, then notifies each second with the RR that ended (an H10's rhythm)"
    )
    func virtualStrapRhythm() throws {
        var options = VirtualStrap.Options()
        options.connectMs = 2000
        let strap = VirtualStrap(options: options, today: { Self.day })
        let events = Self.drive(strap, from: 10_000, seconds: 62)
        guard case (12_000, .connected)? = events.first else {
            Issue.record("first event: \(String(describing: events.first))")
            return
        }
        let samples = events.compactMap { e -> (Int64, UInt16, [UInt16])? in
            if case .sample(let bpm, let rr) = e.1 { (e.0, bpm, rr) } else { nil }
        }
        #expect(samples.count == 60)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $1.0 - $0.0 == 1000 })
        // The RR delivered add up to the time elapsed, within one beat.
        let totalMs = samples.flatMap(\.2).reduce(0.0) { $0 + Double($1) * 1000 / 1024 }
        #expect(abs(totalMs - 60_000) < 1500)
        #expect(samples.allSatisfy { (40...100).contains($0.1) })
    }

    @Test("The virtual person stands at the long tone: the heart rate rises, peaking 10–15 s later (DESIGN §5 h10sim)")
    func virtualPersonStands() {
        let strap = VirtualStrap(options: VirtualStrap.Options(), today: { Self.day })
        _ = strap.connect(to: StrapAddress(address: nil), nowMs: 0)
        var bpmByTime: [(Int64, UInt16)] = []
        var now: Int64 = 0
        while let next = strap.nextDeadlineMs, next <= 120_000 {
            now = next
            if now == 62_000 { strap.personStands(atMs: now) }
            for e in strap.onDeadline(nowMs: now) { if case .sample(let bpm, _) = e { bpmByTime.append((now, bpm)) } }
        }
        let lying = bpmByTime.filter { $0.0 < 62_000 }.map { Double($0.1) }
        let standing = bpmByTime.filter { $0.0 >= 62_000 }
        let lyingMean = lying.reduce(0, +) / Double(lying.count)
        let peak = standing.max { $0.1 < $1.1 }!
        #expect(Double(peak.1) > lyingMean + 10)
        #expect((70_000...80_000).contains(peak.0), "peak at \(peak.0 - 62_000) ms after standing")
    }

    @Test("HR-only and drop-out options: no RR at all; a gap with a disconnect and a reconnect")
    func virtualStrapOptions() {
        var options = VirtualStrap.Options()
        options.heartRateOnly = true
        options.dropoutAtMs = 20_000
        options.dropoutForMs = 10_000
        let strap = VirtualStrap(options: options, today: { Self.day })
        let events = Self.drive(strap, from: 0, seconds: 60)
        #expect(events.allSatisfy { if case .sample(_, let rr) = $0.1 { rr.isEmpty } else { true } })
        let disconnects = events.filter { if case .disconnected = $0.1 { true } else { false } }.map(\.0)
        let connects = events.filter { if case .connected = $0.1 { true } else { false } }.map(\.0)
        #expect(disconnects == [22_000])
        #expect(connects == [2000, 32_000])
        #expect(!events.contains { if case .sample = $0.1 { $0.0 > 22_000 && $0.0 < 32_000 } else { false } })
    }

    @Test("A simulated clock stands still until a deadline is reached, and moves forward on request only")
    func steppedClock() {
        let start = LocalTime.epochSeconds(of: Self.day, at: MinuteOfDay(hhmm: "06:00")!)
        let clock = SteppedClock(speed: 1000, startEpoch: start)
        let t0 = clock.monotonicMs()
        #expect(clock.monotonicMs() == t0)
        clock.reached(t0 + 90_000)
        #expect(clock.monotonicMs() == t0 + 90_000)
        clock.reached(t0)  // never backwards
        #expect(clock.monotonicMs() == t0 + 90_000)
        #expect(clock.localTime().minuteOfDay == MinuteOfDay(hhmm: "06:01"))
        clock.advance(ms: 86_400_000)
        #expect(clock.localTime().date == Self.day.adding(days: 1))
    }
}

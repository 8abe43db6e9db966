import Appliance
import Platform
import RecoveryCore

/// An in-process virtual strap for the demo, the torture and soak tests: a seeded `SyntheticPerson`'s
/// heart, beat by beat on the daemon's clock, delivered like an H10's notifications (about one a second,
/// carrying the RR that ended since the last one). The person lies down when the session starts and
/// stands when the buzzer gives the long tone. Options make it HR-only, add artifacts, or drop out.
/// It has no descriptor: everything it does happens at its deadlines.
public final class VirtualStrap: StrapSource {
    public struct Options: Hashable, Sendable {
        public var seed: UInt64 = 10
        /// The person's day 0; the morning played is today's index from it.
        public var firstDate = LocalDate(year: 2026, month: 1, day: 1)!
        public var heartRateOnly = false
        public var artifactProbability = 0.0
        public var connectMs: Int64 = 2000
        /// Drop out this long after connecting, for this long (once per session).
        public var dropoutAtMs: Int64?
        public var dropoutForMs: Int64 = 20_000
        public var address = "F0:00:00:00:53:01"
        public var batteryPercent = 87

        public init() {}
    }

    enum State {
        case idle
        case connecting(untilMs: Int64)
        case live
        case droppedOut(untilMs: Int64)
    }

    public let options: Options
    /// Today's date, from the daemon (which morning of the person to play).
    var today: () -> LocalDate
    private var state = State.idle
    private var heart: SyntheticHeart?
    private var upcoming: SyntheticBeat?
    private var heartStartMs: Int64 = 0
    private var nextNotifyMs: Int64 = 0
    private var droppedOnce = false
    private var lastBPM: UInt16 = 0
    private var rr: [UInt16] = []

    public init(options: Options, today: @escaping () -> LocalDate) {
        self.options = options
        self.today = today
        rr.reserveCapacity(8)
    }

    /// In-process: nothing to watch.
    public var readiness: ReadinessSet? { nil }
    public func onReadable(_ fd: FileDescriptor, nowMs: Int64) -> [StrapEvent] { [] }

    public var nextDeadlineMs: Int64? {
        switch state {
        case .idle: nil
        case .connecting(let until), .droppedOut(let until): until
        case .live: nextNotifyMs
        }
    }

    public var statusLine: String {
        switch state {
        case .idle: "virtual strap idle"
        case .connecting: "virtual strap connecting"
        case .live: options.heartRateOnly ? "virtual strap live, heart rate only" : "virtual strap live, RR OK"
        case .droppedOut: "virtual strap dropped out"
        }
    }

    /// The virtual strap is always there: `address` is not needed.
    public func connect(to address: StrapAddress, nowMs: Int64) -> [StrapEvent] {
        switch state {
        case .idle:
            state = .connecting(untilMs: nowMs + options.connectMs)
            droppedOnce = false
            return []
        case .live:
            return [.connected(address: options.address, batteryPercent: options.batteryPercent)]
        case .connecting, .droppedOut:
            return []
        }
    }

    public func disconnect() -> [StrapEvent] {
        state = .idle
        heart = nil
        upcoming = nil
        return []
    }

    public func personStands(atMs: Int64) {
        heart?.standAtMs = atMs - heartStartMs
    }

    public func onDeadline(nowMs: Int64) -> [StrapEvent] {
        switch state {
        case .idle:
            return []
        case .connecting(let until):
            guard nowMs >= until else { return [] }
            // The person has been lying since GO; their heart starts now on the daemon's clock.
            let n = max(0, options.firstDate.days(to: today()))
            let person = SyntheticPerson(seed: options.seed, firstDate: options.firstDate)
            heart = person.heart(
                day: n,
                options: .init(artifactProbability: options.artifactProbability, rrAvailable: !options.heartRateOnly))
            upcoming = nil
            lastBPM = UInt16(heart.map { $0.targetHeartRate(atMs: 0).rounded() } ?? 60)
            heartStartMs = nowMs
            nextNotifyMs = nowMs + 1000
            state = .live
            return [.connected(address: options.address, batteryPercent: options.batteryPercent)]
        case .droppedOut(let until):
            guard nowMs >= until else { return [] }
            // Beats during the drop-out are lost, as with a real strap.
            beats(until: nowMs)
            state = .live
            nextNotifyMs = nowMs + 1000
            return [.connected(address: options.address, batteryPercent: options.batteryPercent)]
        case .live:
            guard nowMs >= nextNotifyMs else { return [] }
            if let at = options.dropoutAtMs, !droppedOnce, nowMs - heartStartMs >= at {
                droppedOnce = true
                state = .droppedOut(untilMs: nowMs + options.dropoutForMs)
                return [.disconnected(reason: "virtual strap drop-out")]
            }
            nextNotifyMs += 1000
            if nextNotifyMs <= nowMs { nextNotifyMs = nowMs + 1000 }
            if let last = beats(until: nowMs) { lastBPM = UInt16(min(250, max(25, (60_000 / last).rounded()))) }
            return [.sample(bpm: lastBPM, rr: options.heartRateOnly ? [] : rr)]
        }
    }

    /// Collects in `rr` the beats that ended by `nowMs`; returns the last one's length in ms.
    @discardableResult
    private func beats(until nowMs: Int64) -> Double? {
        rr.removeAll(keepingCapacity: true)
        guard var current = heart else { return nil }
        let elapsed = Double(nowMs - heartStartMs)
        var last: Double?
        while true {
            let beat = upcoming ?? current.nextBeat()
            if beat.endMs > elapsed {
                upcoming = beat
                break
            }
            upcoming = nil
            rr.append(beat.raw)
            last = beat.rrMs
        }
        heart = current
        return last
    }

    public func close() { _ = disconnect() }
}

import Testing

@testable import RecoveryCore

/// A hand-moved clock around a `MorningSession`, and a fake strap that notifies once a second with the
/// RR that elapsed, so a whole morning runs in microseconds and nothing sleeps.
struct SessionHarness {
    static let today = LocalDate(year: 2026, month: 3, day: 10)!
    static let epochAtZero: Int64 = 1_773_100_800  // any fixed wall time; only dating uses it
    static let questionnaire = Questionnaire(date: today, scores: SubjectiveScores([5, 5, 5, 5, 5])!)

    var session: MorningSession
    var nowMs: Int64 = 0
    /// Every action, with the time it was emitted.
    var log: [(atMs: Int64, action: MorningSession.Action)] = []
    /// Every phase entered, with the time.
    var phases: [(atMs: Int64, phase: MorningSession.Phase)] = []
    var strap = FakeStrap()
    /// How late the daemon's timer fires after each deadline (a busy machine).
    var timerLatenessMs: Int64 = 0
    /// Every notification delivered: when, and how many RR it carried.
    var delivered: [(atMs: Int64, rr: Int)] = []

    init(day: DayContext = DayContext(today: today, questionnaire: questionnaire), timings: SessionTimings = .standard)
    {
        session = MorningSession(day: day, timings: timings)
        phases = [(0, .idle)]
    }

    var time: SessionTime { SessionTime(monotonicMs: nowMs, epochSeconds: SessionHarness.epochAtZero + nowMs / 1000) }

    @discardableResult
    mutating func send(_ event: MorningSession.Event) -> [MorningSession.Action] {
        let actions = session.handle(event, at: time)
        for action in actions {
            log.append((nowMs, action))
            switch action {
            case .connectStrap: strap.linkRequested = true
            case .disconnectStrap: strap.linkRequested = false
            case .sound(.standNow): strap.standAtMs = nowMs
            default: break
            }
        }
        if phases.last?.phase != session.phase { phases.append((nowMs, session.phase)) }
        return actions
    }

    /// Moves the clock to `targetMs`, delivering every session deadline and every strap notification in
    /// time order (a deadline and a notification at the same ms: the deadline first).
    mutating func run(untilMs targetMs: Int64) {
        var repeats = 0
        var lastTickAt: Int64 = -1
        while true {
            let deadline = session.nextDeadlineMs.map { max($0 + timerLatenessMs, nowMs) }
            let notification = strap.nextNotificationMs(after: nowMs)
            let next = [deadline, notification].compactMap { $0 }.filter { $0 <= targetMs }.min()
            guard let next else { break }
            nowMs = max(nowMs, next)
            if let deadline, deadline <= nowMs {
                repeats = deadline == lastTickAt ? repeats + 1 : 0
                lastTickAt = deadline
                if repeats > 3 {
                    Issue.record("deadline \(deadline) in \(session.phase) does not move")
                    break
                }
                send(.tick)
                continue
            }
            if let notification, notification <= nowMs {
                if let (bpm, rr) = strap.notify(at: nowMs) {
                    delivered.append((nowMs, rr.count))
                    send(.heartRate(bpm: bpm, rr: rr))
                }
            }
        }
        nowMs = targetMs
    }

    /// Runs until the session reaches `phase` (or `limitMs` passes); returns the time it got there.
    @discardableResult
    mutating func run(until phase: MorningSession.Phase, limitMs: Int64 = 1_000_000) -> Int64? {
        while session.phase != phase && nowMs < limitMs {
            let deadline = session.nextDeadlineMs.map { $0 + timerLatenessMs }
            let notification = strap.nextNotificationMs(after: nowMs)
            guard let next = [deadline, notification].compactMap({ $0 }).min() else { return nil }
            run(untilMs: max(next, nowMs))
        }
        return session.phase == phase ? nowMs : nil
    }

    /// GO, and the strap connects `connectDelayMs` later.
    mutating func startMorning(connectDelayMs: Int64 = 2000) {
        send(.go(.short))
        strap.sending = true
        strap.startMs = nowMs + connectDelayMs
        run(untilMs: nowMs + connectDelayMs)
        send(.strapConnected(address: "A0:9E:1A:00:00:01", batteryPercent: 80))
    }

    var sounds: [Sound] { log.compactMap { if case .sound(let s) = $0.action { s } else { nil } } }
    var saves: [(MorningMeasurement, Bool)] {
        log.compactMap { if case .save(let m, let o) = $0.action { (m, o) } else { nil } }
    }
    var records: [String] { log.compactMap { if case .record(let r) = $0.action { r.name } else { nil } } }
    var sentences: [String] { log.compactMap { if case .say(let s) = $0.action { s } else { nil } } }
    func entered(_ phase: MorningSession.Phase) -> [Int64] { phases.filter { $0.phase == phase }.map(\.atMs) }
}

/// A strap that notifies once a second from `startMs`, carrying the beats that ended since the last
/// notification. Beats cycle through `pattern` (raw 1/1024 s); BPM is the strap's rounded rate.
struct FakeStrap {
    var linkRequested = false
    var sending = false
    var startMs: Int64 = 0
    /// RR in 1/1024 s, cycled.
    var pattern: [UInt16] = [1024, 1065]  // 1000 ms and 1040.04 ms
    /// After standing, this pattern (a faster heart).
    var standingPattern: [UInt16] = [768, 778]
    var standAtMs: Int64?
    var rrIncluded = true
    var nextBeatEndMs: Double = 0
    var beatIndex = 0
    var lastNotifyMs: Int64?
    var beatsStarted = false
    /// Notifications due in this span are lost on the way (their beats are never received).
    var lostMs: Range<Int64>?
    /// Notifications due in this span come from a strap without skin contact: a zero rate, and each beat's time
    /// split in two (30 % and 70 %), as a strap reading noise would.
    var noContactMs: Range<Int64>?

    /// When the next notification is due (now, if overdue).
    func nextNotificationMs(after t: Int64) -> Int64? {
        guard sending else { return nil }
        guard let last = lastNotifyMs else { return max(startMs, t) }
        return max(last + 1000, t)
    }

    mutating func notify(at t: Int64) -> (UInt16, [UInt16])? {
        guard sending, t >= startMs else { return nil }
        if let last = lastNotifyMs, t < last + 1000 { return nil }
        if !beatsStarted {
            beatsStarted = true
            nextBeatEndMs = Double(t)
        }
        lastNotifyMs = t
        var rr: [UInt16] = []
        while true {
            let standing = standAtMs.map { nextBeatEndMs >= Double($0) } ?? false
            let cycle = standing ? standingPattern : pattern
            let raw = cycle[beatIndex % cycle.count]
            let end = nextBeatEndMs + Double(raw) * 1000 / 1024
            if end > Double(t) { break }
            nextBeatEndMs = end
            beatIndex += 1
            rr.append(raw)
        }
        let standing = standAtMs.map { Double(t) >= Double($0) } ?? false
        let cycle = standing ? standingPattern : pattern
        let meanMs = Double(cycle.map(Int.init).reduce(0, +)) / Double(cycle.count) * 1000 / 1024
        let bpm = UInt16((60_000 / meanMs).rounded())
        if let lostMs, lostMs.contains(t) { return nil }
        if let noContactMs, noContactMs.contains(t) {
            return (0, rr.flatMap { raw -> [UInt16] in [raw * 3 / 10, raw - raw * 3 / 10] })
        }
        return (bpm, rrIncluded ? rr : [])
    }
}

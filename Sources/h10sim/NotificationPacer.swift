import HeartRateProtocol

/// The strap's clock: about one Heart Rate Measurement a second carrying the RR intervals that
/// ended since the previous one (0–n of them; DESIGN §5), its BPM the strap's smoothed rate.
///
/// Heart time starts when notifications are first enabled (so a replayed file is delivered whole)
/// and runs `speed` times faster than the wall clock: RR values are unchanged, notifications come
/// sooner. Beats that end while nobody is subscribed (a drop-out) are lost, as with a real strap.
struct NotificationPacer<Source: BeatSource> {
    let speed: Double
    let heartRateOnly: Bool
    private(set) var source: Source
    /// Wall time (monotonic ms) heart time 0 corresponds to; nil until the first subscription.
    private(set) var startedAtMs: Int64?
    /// Notifications produced so far (sent or not).
    private(set) var tick: Int64 = 0
    /// End (heart ms) of the last beat taken from the source.
    private var heartClockMs: Int64 = 0
    /// A beat taken from the source that has not ended yet at the current tick.
    private var upcoming: (raw: UInt16, endMs: Int64)?
    /// Ended beats not yet sent (more than one notification holds are carried over).
    private var queued: [UInt16] = []
    private var recent: [UInt16] = []
    private(set) var sourceExhausted = false
    /// RR intervals lost because nobody was subscribed when they ended.
    private(set) var lostIntervals = 0
    private(set) var sentIntervals = 0

    init(source: Source, speed: Double, heartRateOnly: Bool) {
        self.source = source
        self.speed = speed
        self.heartRateOnly = heartRateOnly
    }

    /// Heart time begins (first subscription); later calls change nothing.
    mutating func start(atMs nowMs: Int64) {
        if startedAtMs == nil { startedAtMs = nowMs }
    }

    /// When the next notification is due (wall, monotonic ms), nil before the start.
    var nextDueMs: Int64? {
        guard let start = startedAtMs else { return nil }
        return start + Int64((Double(tick + 1) * 1000 / speed).rounded())
    }

    /// Every beat has been delivered or lost and the source has no more.
    var isFinished: Bool { sourceExhausted && upcoming == nil && queued.isEmpty }

    /// Advances one notification period. Returns the measurement to notify, or nil when there is
    /// none yet (no beat has ended, so there is no rate to report). With `subscribed` false the
    /// period's beats are lost. `rrCapacity` is how many RR fit one notification at the MTU.
    mutating func advance(subscribed: Bool, rrCapacity: Int) -> HeartRateMeasurement? {
        tick += 1
        let heartNowMs = tick * 1000
        while true {
            if upcoming == nil {
                guard let raw = source.nextRR() else {
                    sourceExhausted = true
                    break
                }
                // Beat end times accumulate in exact 1/1024 s, rounded to ms only for comparison.
                heartClockMs += Int64(raw)
                upcoming = (raw, heartClockMs * 1000 / 1024)
            }
            guard let beat = upcoming, beat.endMs <= heartNowMs else { break }
            upcoming = nil
            recent.append(beat.raw)
            if recent.count > 4 { recent.removeFirst() }
            if subscribed { queued.append(beat.raw) } else { lostIntervals += 1 }
        }
        if !subscribed {
            lostIntervals += queued.count
            queued.removeAll()
            return nil
        }
        guard !recent.isEmpty else { return nil }
        let meanRaw = Double(recent.reduce(0) { $0 + Int($1) }) / Double(recent.count)
        let bpm = UInt16(min(255, max(1, (60_000 / (meanRaw * 1000 / 1024)).rounded())))
        if heartRateOnly {
            queued.removeAll()
            return HeartRateMeasurement(beatsPerMinute: bpm, sensorContact: .notSupported)
        }
        let take = min(queued.count, max(0, rrCapacity))
        let rr = Array(queued.prefix(take))
        queued.removeFirst(take)
        sentIntervals += rr.count
        // Flags 0x10 as a real H10 sends them: RR present, no sensor-contact bits.
        return HeartRateMeasurement(beatsPerMinute: bpm, sensorContact: .notSupported, rrIntervals: rr)
    }

    /// Heart time now, ms (for logs).
    var heartTimeMs: Int64 { tick * 1000 }
}

/// A generated morning: every beat, with the time it ended.
public struct SyntheticMorning: Hashable, Sendable {
    public var day: SyntheticDay
    public var standAtMs: Int64?
    public var beats: [SyntheticBeat]
    public var rrAvailable: Bool

    public init(day: SyntheticDay, standAtMs: Int64?, beats: [SyntheticBeat], rrAvailable: Bool) {
        self.day = day
        self.standAtMs = standAtMs
        self.beats = beats
        self.rrAvailable = rrAvailable
    }

    /// The beats as the box stores them: RR intervals stamped with the time they ended.
    public var rrIntervals: [RRInterval] {
        beats.map { RRInterval(raw: $0.raw, receivedAtMs: Int64($0.endMs.rounded(.up))) }
    }

    /// What a strap would notify every `periodMs`: the RR that ended since the previous notification (none in
    /// HR-only mode), and its BPM: 60000 / mean of the last four RR (the strap smooths), rounded.
    public func notifications(periodMs: Int64 = 1000) -> [SyntheticNotification] {
        var result: [SyntheticNotification] = []
        var index = 0
        var recent: [Double] = []
        var at = periodMs
        let end = beats.last.map { Int64($0.endMs.rounded(.up)) } ?? 0
        while at <= end + periodMs {
            var raws: [UInt16] = []
            while index < beats.count && beats[index].endMs <= Double(at) {
                raws.append(beats[index].raw)
                recent.append(beats[index].rrMs)
                if recent.count > 4 { recent.removeFirst() }
                index += 1
            }
            if !recent.isEmpty {
                let bpm = 60_000 / (recent.reduce(0, +) / Double(recent.count))
                result.append(
                    SyntheticNotification(
                        atMs: at, bpm: UInt16(min(255, max(1, bpm.rounded()))), rrRaw: rrAvailable ? raws : []))
            }
            at += periodMs
        }
        return result
    }

    /// The BPM values of `notifications(periodMs:)` as readings.
    public func heartRates(periodMs: Int64 = 1000) -> [HeartRateReading] {
        notifications(periodMs: periodMs).map { HeartRateReading(bpm: $0.bpm, receivedAtMs: $0.atMs) }
    }
}

/// One Heart Rate Measurement a strap would send.
public struct SyntheticNotification: Hashable, Sendable {
    public var atMs: Int64
    public var bpm: UInt16
    public var rrRaw: [UInt16]
}

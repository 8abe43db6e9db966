import RecoveryCore

/// Mornings of a seeded `SyntheticPerson` put through the real metric core and written through the
/// real store: the demo's history, and a fixture for anything that needs a plausible database.
///
/// Each morning follows the combined protocol (spec §6.1) on the synthetic heart: settle 15 s, the
/// rMSSD window (`RMSSDWindow`), 30 s lying, a 3 s stand cue, 60 s standing; the orthostatic
/// numbers come from `OrthostaticCalculator` over the session's RR and BPM. A capture that fails
/// quality is stored as such, without the orthostatic part, as a session would end it.
public enum SyntheticHistory {
    /// The protocol's own durations, so a synthetic morning is timed as a session times one.
    static let lyingMs = MorningProtocol.lyingMs
    static let standCueMs = MorningProtocol.standCueMs
    static let standingMs = MorningProtocol.standingMs

    /// Day `n`'s morning for `person`, started at `startedAtEpoch`.
    public static func morning(
        person: SyntheticPerson, day n: Int, startedAtEpoch: Int64, options: SyntheticHeart.Options = .init(),
        skipOrthostatic: Bool = false, rule: ArtifactRule = .default
    ) -> MorningMeasurement {
        var heart = person.heart(day: n, options: options)
        var configuration = RMSSDWindow.Configuration.morning
        configuration.artifactRule = rule
        var window = RMSSDWindow(startMs: 0, configuration: configuration)
        var beats: [SyntheticBeat] = []
        var capture: HRVWindowResult?
        var endMs: Int64 = .max
        while true {
            let beat = heart.nextBeat()
            let at = Int64(beat.endMs.rounded(.up))
            if at >= endMs { break }
            beats.append(beat)
            guard capture == nil else { continue }
            let rr = RRInterval(raw: beat.raw, receivedAtMs: at)
            if case .complete(let result) = window.append(rr.milliseconds, at: at) {
                capture = result
                if !result.quality.isOK || skipOrthostatic {
                    // The session ends with the beat that closed the window: keep that beat.
                    endMs = result.captureEndMs + 1
                } else {
                    heart.standAtMs = result.captureEndMs + lyingMs + standCueMs
                    endMs = result.captureEndMs + lyingMs + standCueMs + standingMs
                }
            }
        }
        let result = capture ?? window.finish(at: endMs)
        let recorded = SyntheticMorning(
            day: heart.day, standAtMs: heart.standAtMs, beats: beats, rrAvailable: options.rrAvailable)
        let rr = options.rrAvailable ? recorded.rrIntervals.filter { $0.receivedAtMs < endMs } : []
        let heartRates = recorded.heartRates().filter { $0.receivedAtMs < endMs }
        let measuredOrthostatic = result.quality.isOK && !skipOrthostatic
        let marks = PhaseMarks(
            settleStartMs: 0, captureStartMs: result.captureStartMs, captureEndMs: result.captureEndMs,
            lyingEndMs: measuredOrthostatic ? result.captureEndMs + lyingMs : nil,
            standStartMs: measuredOrthostatic ? result.captureEndMs + lyingMs + standCueMs : nil,
            standEndMs: measuredOrthostatic ? endMs : nil)
        let orthostatic =
            measuredOrthostatic ? OrthostaticCalculator.result(rr: rr, heartRates: heartRates, marks: marks) : nil
        let status: OrthostaticStatus =
            skipOrthostatic ? .skipped : (orthostatic == nil ? .failed : .completed)
        let captureHR = OrthostaticCalculator.meanHeartRate(
            rr: rr, heartRates: heartRates,
            phase: result.captureStartMs..<max(result.captureEndMs, result.captureStartMs + 1))
        return MorningMeasurement(
            date: heart.day.date, startedAtEpoch: startedAtEpoch,
            durationMs: endMs,
            hrv: options.rrAvailable ? result.metrics : nil, meanHRBpm: result.metrics.meanHRBpm ?? captureHR?.bpm,
            quality: result.quality, orthostaticStatus: status, orthostatic: orthostatic,
            strapAddress: "A0:9E:1A:00:00:01", strapBatteryPercent: 90, marks: marks, rawRR: rr, heartRates: heartRates)
    }
}

extension Store {
    /// Writes `person`'s days `days` (indices from `person.firstDate`) as checked-in and measured mornings,
    /// each questionnaire and morning through the same calls the box uses. A share of days
    /// (`missingShare`) is left out entirely (nothing stored: missing stays missing) and a share of
    /// mornings (`skipShare`) skips the orthostatic part, both decided by the seed. `startedAt` gives
    /// each morning's start instant.
    public func seedSyntheticHistory(
        person: SyntheticPerson, days: Range<Int>, missingShare: Double = 0.05, skipShare: Double = 1.0 / 12.0,
        startedAt: (LocalDate) -> Int64
    ) throws(StoreError) {
        for synthetic in person.days(days) {
            var random = SeededRandom(seed: person.seed, stream: 0xDE40, UInt64(synthetic.index))
            let missing = random.chance(missingShare)
            let skip = random.chance(skipShare)
            if missing { continue }
            let start = startedAt(synthetic.date)
            try saveQuestionnaire(synthetic.questionnaire, recordedAt: start - 120)
            let morning = SyntheticHistory.morning(
                person: person, day: synthetic.index, startedAtEpoch: start, skipOrthostatic: skip)
            try saveMorning(morning, recordedAt: start + morning.durationMs / 1000)
        }
    }
}

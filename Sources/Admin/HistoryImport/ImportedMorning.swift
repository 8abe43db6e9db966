import RecoveryCore

/// One morning read from an import file: only what the file held; every absent value stays nil.
public struct ImportedMorning: Hashable, Sendable {
    public var date: LocalDate
    /// Where it came from: "FILE line N" or the RR file's name.
    public var origin: String
    public var rmssdMs: Double?
    public var hrv: HRVMetrics?
    public var quality: Quality = .ok
    public var orthostatic: OrthostaticResult?
    /// Lying (resting) heart rate without a standing test: what other apps export as resting HR (bpm).
    public var lyingHRBpm: Double?
    public var scores: SubjectiveScores?
    public var rawRR: [RRInterval] = []
    /// Local minute the reading started, when the file says (Elite HRV's RR file names do).
    public var startMinute: MinuteOfDay?

    public init(date: LocalDate, origin: String) {
        self.date = date
        self.origin = origin
    }

    /// The day as the store keeps it, marked imported. No box session happened: durations and phase
    /// marks are zero, strap fields absent; the orthostatic part is "skipped" when the file has none,
    /// which is what the spec's completeness rule counts for an HRV-only morning (§6.2, §7.2). A lying rate
    /// alone is kept as the morning's mean HR, which `Channel.lyingHR` reads for an imported day.
    public func dayRecord(epochOfStart: (LocalDate, MinuteOfDay) -> Int64) -> DayRecord {
        var measurement: MorningMeasurement? = nil
        if hrv != nil || rmssdMs != nil || orthostatic != nil || lyingHRBpm != nil {
            let metrics =
                hrv
                ?? rmssdMs.map {
                    HRVMetrics(
                        rmssdMs: $0, meanRRMs: nil, meanHRBpm: nil, sdnnMs: nil, accepted: 0, rejected: 0,
                        artifactRatio: 0, rmssdMethod: .external)
                }
            measurement = MorningMeasurement(
                date: date, startedAtEpoch: epochOfStart(date, startMinute ?? MinuteOfDay(minutes: 0)!), durationMs: 0,
                hrv: metrics, meanHRBpm: lyingHRBpm ?? metrics?.meanHRBpm, quality: quality,
                orthostaticStatus: orthostatic == nil ? .skipped : .completed, orthostatic: orthostatic,
                strapAddress: nil, strapBatteryPercent: nil,
                marks: PhaseMarks(settleStartMs: 0, captureStartMs: 0, captureEndMs: 0), rawRR: rawRR, heartRates: [])
        }
        let questionnaire = scores.map { Questionnaire(date: date, scores: $0) }
        return DayRecord(date: date, questionnaire: questionnaire, measurement: measurement, imported: true)
    }

    /// One line for `--dry-run` and the summary: what the morning holds.
    public var summary: String {
        var parts: [String] = []
        if let r = hrv?.rmssdMs ?? rmssdMs { parts.append("rMSSD \(oneDecimal(r)) ms") }
        if case .fail(let why) = quality { parts.append("quality failed (\(why.rawValue))") }
        if let o = orthostatic {
            parts.append(
                "lying \(oneDecimal(o.avgLyingHR)), standing \(oneDecimal(o.avgStandingHR)), peak \(oneDecimal(o.peakStandingHR)) bpm"
            )
        }
        if let l = lyingHRBpm { parts.append("lying \(oneDecimal(l)) bpm") }
        if let s = scores {
            parts.append("scores \(SubjectiveItem.allCases.map { String(s[$0].value) }.joined(separator: " "))")
        }
        if !rawRR.isEmpty { parts.append("\(rawRR.count) RR") }
        return parts.joined(separator: ", ")
    }
}

/// A number with one decimal, without Foundation's formatter; "–" for one no whole number can hold.
func oneDecimal(_ x: Double) -> String {
    guard let tenths = Int(exactly: (abs(x) * 10).rounded()) else { return "–" }
    return (x < 0 && tenths != 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
}

/// A finished morning measurement: everything the store keeps for one local day.
public struct MorningMeasurement: Hashable, Sendable {
    public var date: LocalDate
    /// Wall-clock start, seconds since the Unix epoch (UTC).
    public var startedAtEpoch: Int64
    public var durationMs: Int64
    /// nil in degraded (HR-only) mode: rMSSD is never derived from BPM (spec §4.1).
    public var hrv: HRVMetrics?
    /// Mean HR over the capture. In degraded (HR-only) mode the only capture value: the strap's BPM averaged,
    /// with `hrv` nil; the orthostatic numbers are still kept, from BPM (spec §5.2 allows the mean of BPM
    /// samples), and the day is not complete (spec §7.2: rMSSD missing).
    public var meanHRBpm: Double?
    public var quality: Quality
    public var orthostaticStatus: OrthostaticStatus
    public var orthostatic: OrthostaticResult?
    public var strapAddress: String?
    public var strapBatteryPercent: Int?
    public var marks: PhaseMarks
    /// Every RR interval received during the session, in order (the person's data; allows re-analysis).
    public var rawRR: [RRInterval]
    /// Every BPM value received during the session, in order.
    public var heartRates: [HeartRateReading]

    public init(
        date: LocalDate, startedAtEpoch: Int64, durationMs: Int64, hrv: HRVMetrics?, meanHRBpm: Double?,
        quality: Quality, orthostaticStatus: OrthostaticStatus, orthostatic: OrthostaticResult?,
        strapAddress: String?, strapBatteryPercent: Int?, marks: PhaseMarks, rawRR: [RRInterval],
        heartRates: [HeartRateReading]
    ) {
        self.date = date
        self.startedAtEpoch = startedAtEpoch
        self.durationMs = durationMs
        self.hrv = hrv
        self.meanHRBpm = meanHRBpm
        self.quality = quality
        self.orthostaticStatus = orthostaticStatus
        self.orthostatic = orthostatic
        self.strapAddress = strapAddress
        self.strapBatteryPercent = strapBatteryPercent
        self.marks = marks
        self.rawRR = rawRR
        self.heartRates = heartRates
    }
}

/// One RR interval as the strap sent it: the raw 1/1024 s count (lossless, what the wire carries) and
/// when it arrived, in milliseconds since the session started (monotonic clock).
public struct RRInterval: Hashable, Sendable {
    public var raw: UInt16
    public var receivedAtMs: Int64

    public init(raw: UInt16, receivedAtMs: Int64) {
        self.raw = raw
        self.receivedAtMs = receivedAtMs
    }

    /// RecoveryDeck spec §4.1: `rr_ms = rr_raw * 1000 / 1024`.
    @inlinable public var milliseconds: Double { Double(raw) * 1000.0 / 1024.0 }
}

/// One BPM value from a Heart Rate Measurement, and when it arrived (ms since session start).
public struct HeartRateReading: Hashable, Sendable {
    public var bpm: UInt16
    public var receivedAtMs: Int64

    public init(bpm: UInt16, receivedAtMs: Int64) {
        self.bpm = bpm
        self.receivedAtMs = receivedAtMs
    }
}

/// Why an rMSSD capture failed quality (spec §5.1 step 4; §4.1 for RR unavailable).
public enum QualityFailure: String, Sendable, CaseIterable {
    case tooFewBeats = "too_few_beats"
    case tooManyArtifacts = "too_many_artifacts"
    case rrUnavailable = "rr_unavailable"
}

/// The quality verdict of a capture.
public enum Quality: Hashable, Sendable {
    case ok
    case fail(QualityFailure)

    public var isOK: Bool { self == .ok }
}

/// How an rMSSD value was computed: the export says so beside the value, so values from different methods are
/// never compared unawares.
public enum RMSSDMethod: String, Hashable, Sendable, CaseIterable {
    /// Over the pairs of accepted intervals adjacent as received (spec §5.1, "successive valid intervals").
    case adjacentPairs = "adjacent_pairs"
    /// Over consecutive entries of the accepted list, across removed beats: how the box computed it before, kept
    /// only for a stored morning whose raw RR could not reproduce its window.
    case acceptedList = "accepted_list"
    /// Taken from another tool's export (a history import); its method is that tool's.
    case external
}

/// Time-domain HRV over the accepted intervals of a window (spec §5.1).
public struct HRVMetrics: Hashable, Sendable {
    /// nil when no adjacent pair of accepted intervals: missing, never zero.
    public var rmssdMs: Double?
    public var meanRRMs: Double?
    public var meanHRBpm: Double?
    public var sdnnMs: Double?
    public var accepted: Int
    public var rejected: Int
    /// rejected / (accepted + rejected); 0 when nothing arrived.
    public var artifactRatio: Double
    /// The number of adjacent pairs rMSSD was taken over; nil when the method does not say (`external`,
    /// `acceptedList`).
    public var pairs: Int?
    public var rmssdMethod: RMSSDMethod
    /// The rule and detector version that judged the beats, and why each rejected beat was rejected; nil for a
    /// morning judged before this was recorded, or imported from another tool.
    public var judgement: ArtifactTally?

    public init(
        rmssdMs: Double?, meanRRMs: Double?, meanHRBpm: Double?, sdnnMs: Double?, accepted: Int, rejected: Int,
        artifactRatio: Double, pairs: Int? = nil, rmssdMethod: RMSSDMethod = .adjacentPairs,
        judgement: ArtifactTally? = nil
    ) {
        self.rmssdMs = rmssdMs
        self.meanRRMs = meanRRMs
        self.meanHRBpm = meanHRBpm
        self.sdnnMs = sdnnMs
        self.accepted = accepted
        self.rejected = rejected
        self.artifactRatio = artifactRatio
        self.pairs = pairs
        self.rmssdMethod = rmssdMethod
        self.judgement = judgement
    }
}

/// What became of the orthostatic part of a morning (spec §6.1, §6.2).
public enum OrthostaticStatus: String, Sendable, CaseIterable {
    case completed
    case skipped
    case failed
}

/// The orthostatic numbers (spec §5.3). Values in bpm.
public struct OrthostaticResult: Hashable, Sendable {
    public var avgLyingHR: Double
    public var avgStandingHR: Double
    public var peakStandingHR: Double
    public var gapAvg: Double { avgStandingHR - avgLyingHR }
    public var gapPeak: Double { peakStandingHR - avgLyingHR }

    public init(avgLyingHR: Double, avgStandingHR: Double, peakStandingHR: Double) {
        self.avgLyingHR = avgLyingHR
        self.avgStandingHR = avgStandingHR
        self.peakStandingHR = peakStandingHR
    }
}

/// Where each phase of the session began and ended, in ms since the session started, so the raw RR
/// can be re-analysed later.
public struct PhaseMarks: Hashable, Sendable {
    public var settleStartMs: Int64
    public var captureStartMs: Int64
    public var captureEndMs: Int64
    /// The stand cue's start. The lying phase is the 30 s before it (`OrthostaticCalculator.phases(of:)`); it
    /// follows `captureEndMs` directly unless a drop-out was resumed in between.
    public var lyingEndMs: Int64?
    public var standStartMs: Int64?
    public var standEndMs: Int64?

    public init(
        settleStartMs: Int64, captureStartMs: Int64, captureEndMs: Int64, lyingEndMs: Int64? = nil,
        standStartMs: Int64? = nil, standEndMs: Int64? = nil
    ) {
        self.settleStartMs = settleStartMs
        self.captureStartMs = captureStartMs
        self.captureEndMs = captureEndMs
        self.lyingEndMs = lyingEndMs
        self.standStartMs = standStartMs
        self.standEndMs = standEndMs
    }
}

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

/// A local day as the store and the baselines see it: the questionnaire and the measurement, each
/// possibly absent. Missing stays missing (spec §5.4; Health Engine invariant 4).
public struct DayRecord: Hashable, Sendable {
    public var date: LocalDate
    public var questionnaire: Questionnaire?
    public var measurement: MorningMeasurement?
    /// True when the day came from `recoverydeck import` rather than a box measurement.
    public var imported: Bool

    public init(
        date: LocalDate, questionnaire: Questionnaire? = nil, measurement: MorningMeasurement? = nil,
        imported: Bool = false
    ) {
        self.date = date
        self.questionnaire = questionnaire
        self.measurement = measurement
        self.imported = imported
    }
}

// Plain values, so the session's RR and heart-rate stores can hold them (`RingBuffer` takes `BitwiseCopyable`
// elements).
extension RRInterval: BitwiseCopyable {}
extension HeartRateReading: BitwiseCopyable {}

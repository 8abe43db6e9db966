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

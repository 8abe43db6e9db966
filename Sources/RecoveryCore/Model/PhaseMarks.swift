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

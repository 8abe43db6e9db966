/// The outcome of one association test.
public struct Association: Sendable, Equatable {
    /// Pearson r over the paired days.
    public var r: Double
    /// Paired days in the test.
    public var n: Int
    /// Two-sided p from the (rescaled) null distribution.
    public var p: Double
    public var ciLow: Double
    public var ciHigh: Double
    public var tauX: Double
    public var tauY: Double
    public var blockX: Int
    public var blockY: Int
    /// Bartlett's effective number of independent days.
    public var effectiveN: Double
    /// The factor the resampled null's spread was multiplied by (1 for the plain block bootstrap).
    public var widening: Double
    /// Null resamples actually used (a resample in which one side came out constant has no r and is left out).
    public var resamples: Int
}

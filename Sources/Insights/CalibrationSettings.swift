/// The calibration experiment of the Health Engine README: two AR(1) series per trial, independent or
/// correlated at a chosen r, tested by the textbook Pearson test, by the plain null block bootstrap and by
/// the engine's test. Under independence the rejection rate at α is the false-positive rate; with an
/// effect it is the power.
public struct CalibrationSettings: Sendable, Equatable {
    /// Lag-one autocorrelation of both series, in (−1, 1).
    public var rho: Double
    /// Days per series (calendar days, some without a value, when `missing` > 0).
    public var n: Int
    public var trials: Int
    public var resamples: Int
    public var seed: UInt64
    /// Correlation between the two series: y = effect·x + √(1 − effect²)·z with x and z independent AR(1)
    /// of the same ρ, so y is AR(1) too and corr(x_t, y_t) = effect. 0 = independent (null).
    public var effect: Double
    public var alpha: Double
    /// The reporting floor |r| ≥ 0.25 that findings also need (Health Engine: "|r| ≥ 0.25 floor").
    public var floor: Double
    /// Chance that a day has no value (both series lose it): the n days are a calendar with gaps, and the
    /// test sees only the days left, with their dates. 0 = every day present.
    public var missing: Double

    public init(
        rho: Double, n: Int, trials: Int, resamples: Int, seed: UInt64, effect: Double = 0, alpha: Double = 0.05,
        floor: Double = Scan.minimumEffect, missing: Double = 0
    ) {
        self.rho = rho
        self.n = n
        self.trials = trials
        self.resamples = resamples
        self.seed = seed
        self.effect = effect
        self.alpha = alpha
        self.floor = floor
        self.missing = missing
    }

    /// Why the settings cannot run, as one sentence; nil when they can.
    public var problem: String? {
        if !(rho > -1 && rho < 1) { return "rho must lie strictly between -1 and 1" }
        if n < 8 { return "n must be at least 8 days" }
        if trials < 1 { return "trials must be at least 1" }
        if resamples < 10 { return "resamples must be at least 10" }
        if !(effect > -1 && effect < 1) { return "effect must lie strictly between -1 and 1" }
        if !(alpha > 0 && alpha < 1) { return "alpha must lie strictly between 0 and 1" }
        if !(missing >= 0 && missing <= 0.5) { return "missing must lie between 0 and 0.5" }
        return nil
    }
}

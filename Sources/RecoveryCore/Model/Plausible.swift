/// The ranges a stored morning's numbers can take, the box's own measurements being the yardstick: RR
/// beats the artifact filter keeps (300–2000 ms), heart rates a resting or standing person can have, an
/// rMSSD those beats can give. Restore and import refuse a value outside them; a database that already
/// holds one shows it as missing.
public enum Plausible {
    /// Accepted RR intervals (spec §5.1 rule 1).
    public static let rrMs = ArtifactFilter.minimumMs...ArtifactFilter.maximumMs
    /// Mean, lying, standing and peak heart rate (bpm).
    public static let heartRateBpm = 20.0...250.0
    /// rMSSD and SDNN (ms): successive accepted beats cannot differ by more than the RR range's width.
    public static let variabilityMs = 0.0...(ArtifactFilter.maximumMs - ArtifactFilter.minimumMs)
    /// Share of beats rejected.
    public static let ratio = 0.0...1.0
    /// Seconds since 1970 a morning can start at or a file be written at: from `LocalDate.earliestMorning`
    /// (2000-01-01) to 2100-01-01.
    public static let epochSeconds: ClosedRange<Int64> = 946_684_800...4_102_444_800
    /// The last day a morning can be restored for.
    public static let latestMorning = LocalDate(year: 2099, month: 12, day: 31)!
    /// Milliseconds within one session: a day.
    public static let sessionMs: ClosedRange<Int64> = 0...86_400_000
    /// Beats or readings one morning can count.
    public static let countPerMorning = 0...1_000_000

    /// `value` when it is finite and inside `range`, else nil: what a reader shows as missing.
    public static func value(_ value: Double?, in range: ClosedRange<Double>) -> Double? {
        guard let value, value.isFinite, range.contains(value) else { return nil }
        return value
    }
}

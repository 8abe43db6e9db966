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

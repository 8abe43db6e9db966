import RecoveryCore

/// A fast, seeded pseudo-random generator: xoshiro256** (Blackman & Vigna, 2018), its state filled
/// from the seed by SplitMix64 as the authors recommend. Every bootstrap in the engine draws from one
/// of these, so a scan with the same seed gives the same numbers on every run and every thread count.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The xoshiro256** state, shared with the synthetic person's generator (one implementation of the algorithm).
    private var source: SeededRandom
    private var spareGaussian: Double?

    public init(seed: UInt64) {
        source = SeededRandom(seed: seed)
    }

    /// An independent stream for sub-task `index` of a run seeded with `seed` (a trial, a test of a scan):
    /// results do not depend on which thread ran which sub-task.
    public init(seed: UInt64, stream index: Int) {
        var sm = seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD134_2543_DE82_EF95)
        self.init(seed: SeededRandom.splitMix64(&sm))
    }

    /// A seed for sub-task `index`, drawn from its own stream (see `init(seed:stream:)`).
    public static func derivedSeed(_ seed: UInt64, stream index: Int) -> UInt64 {
        var g = SeededGenerator(seed: seed, stream: index)
        return g.next()
    }

    @inline(__always)
    public mutating func next() -> UInt64 { source.next() }

    /// A uniform integer in 0..<bound by Lemire's multiply-high map. Without the rejection step the bias
    /// is at most bound / 2⁶⁴ (below 10⁻¹⁵ for any series length here), far under bootstrap noise.
    @inline(__always)
    public mutating func index(below bound: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(truncatingIfNeeded: bound)).high)
    }

    /// A uniform double in [0, 1) with 53 random bits.
    @inline(__always)
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A standard normal deviate (Box–Muller; the second value of each pair is kept for the next call).
    public mutating func gaussian() -> Double {
        if let g = spareGaussian {
            spareGaussian = nil
            return g
        }
        let u1 = 1.0 - unit()  // (0, 1]: log stays finite
        let u2 = unit()
        let radius = (-2.0 * naturalLog(u1)).squareRoot()
        let angle = 2.0 * Double.pi * u2
        spareGaussian = radius * cosine(angle - Double.pi / 2)  // = radius · sin(angle)
        return radius * cosine(angle)
    }
}

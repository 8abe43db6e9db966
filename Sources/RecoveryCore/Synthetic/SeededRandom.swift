#if canImport(Glibc)
    import Glibc  // libm only (log, cos): no I/O is used from it.
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A deterministic random source for synthetic data: xoshiro256** (Blackman & Vigna, 2018) seeded through
/// SplitMix64, so a seed gives the same stream on every machine and Swift version (the standard library's
/// `random(in:using:)` algorithms are not promised to stay the same, so they are not used).
public struct SeededRandom: Hashable, Sendable {
    @usableFromInline var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    public init(seed: UInt64) {
        var mixer = seed
        s0 = SeededRandom.splitMix64(&mixer)
        s1 = SeededRandom.splitMix64(&mixer)
        s2 = SeededRandom.splitMix64(&mixer)
        s3 = SeededRandom.splitMix64(&mixer)
    }

    /// An independent stream for (seed, a, b): used so that day n's draws do not depend on how many draws day
    /// n − 1 made.
    public init(seed: UInt64, stream a: UInt64, _ b: UInt64 = 0) {
        var mixer = seed ^ 0x9E37_79B9_7F4A_7C15
        let k1 = SeededRandom.splitMix64(&mixer) ^ a
        var mixer2 = k1
        let k2 = SeededRandom.splitMix64(&mixer2) ^ b
        self.init(seed: k2)
    }

    /// SplitMix64 (Steele, Lea & Flood, 2014): one step.
    @inlinable
    public static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    @inlinable
    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    @inlinable func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// Uniform in [0, 1), 53 bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * uniform() }

    /// True with probability p.
    public mutating func chance(_ p: Double) -> Bool { uniform() < p }

    /// Standard normal (Box–Muller, one value per call; the sine half is discarded for simplicity).
    public mutating func normal() -> Double {
        let u1 = 1.0 - uniform()  // (0, 1]: log is finite
        let u2 = uniform()
        return (-2.0 * log(u1)).squareRoot() * cos(2.0 * Double.pi * u2)
    }

    public mutating func normal(mean: Double, sd: Double) -> Double { mean + sd * normal() }
}

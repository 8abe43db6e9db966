import RecoveryCore

/// Detection artifacts, seeded: a missed beat (two RR merged into one) or a spurious one (an RR
/// split in two), each with half of `rate`'s chance — the errors a strap with poor contact makes.
struct ArtifactInjector {
    let rate: Double
    private var random: SeededRandom

    init(rate: Double, seed: UInt64) {
        self.rate = rate
        self.random = SeededRandom(seed: seed, stream: 0xA27)
    }

    mutating func apply(to rr: UInt16, next: UInt16?) -> (intervals: [UInt16], consumedNext: Bool) {
        guard random.chance(rate) else { return ([rr], false) }
        if random.chance(0.5), let next {
            return ([UInt16(min(65_535, Int(rr) + Int(next)))], true)
        }
        let first = UInt16(max(1, (Double(rr) * random.uniform(0.3, 0.5)).rounded()))
        return (rr > first ? [first, rr - first] : [rr], false)
    }
}

import RecoveryCore

/// The seeded synthetic person's heart (RecoveryCore): resting RSA, and an orthostatic rise that
/// peaks 10–15 s after standing when `standAtMs` is set.
struct SyntheticBeats: BeatSource {
    private var heart: SyntheticHeart

    init(seed: UInt64, day: Int, standAtMs: Int64?, artifactRate: Double) {
        heart = SyntheticPerson(seed: seed).heart(day: day, options: .init(artifactProbability: artifactRate))
        heart.standAtMs = standAtMs
    }

    mutating func nextRR() -> UInt16? { heart.nextBeat().raw }
}

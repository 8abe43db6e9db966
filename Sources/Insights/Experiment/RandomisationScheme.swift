/// How an experiment's nights are assigned (T4; DESIGN §6): permuted blocks. The nights are cut into blocks of
/// `block` consecutive nights, and each block holds the habit on exactly half of them, in an order drawn at
/// random. The arms are balanced after every block, a run of the same arm is at most `block` nights long (two
/// half-blocks meeting), and nothing about tonight can be guessed from the nights before within a block's
/// freedom. The scheme is the whole design: `draw(seed:)` with the stored seed gives the schedule the person
/// follows, and draws with other seeds give the re-draws the randomisation test compares it with.
public struct RandomisationScheme: Sendable, Equatable {
    /// Mornings in the experiment (each night's arm shows on the next morning).
    public var mornings: Int
    /// Nights per block: even, so each block is half and half.
    public var block: Int

    public static let defaultBlock = 4
    /// Bounds of an experiment: two blocks of two at the least; a year at the most.
    public static let mornings = 4...366

    public init(mornings: Int, block: Int = RandomisationScheme.defaultBlock) {
        self.mornings = mornings
        self.block = block
    }

    /// Why the scheme cannot be drawn, as the end of a sentence; nil when it can.
    public var problem: String? {
        if !RandomisationScheme.mornings.contains(mornings) {
            return "--days must be between \(RandomisationScheme.mornings.lowerBound) and "
                + "\(RandomisationScheme.mornings.upperBound), not \(mornings)"
        }
        if block < 2 || block % 2 != 0 { return "--block must be an even number of nights, 2 or more, not \(block)" }
        if block > mornings { return "--block (\(block)) cannot be longer than the experiment (\(mornings) days)" }
        if mornings % block != 0 {
            let lower = mornings / block * block
            return "--days must be a whole number of blocks of \(block) so both arms get the same nights; "
                + "take \(lower < RandomisationScheme.mornings.lowerBound ? lower + block : lower) or \(lower + block)"
        }
        return nil
    }

    /// The schedule for seed `seed`: one arm per morning, in order (Fisher–Yates within each block).
    public func draw(seed: UInt64) -> [ExperimentArm] {
        var rng = SeededGenerator(seed: seed)
        return draw(using: &rng)
    }

    func draw(using rng: inout SeededGenerator) -> [ExperimentArm] {
        var arms: [ExperimentArm] = []
        arms.reserveCapacity(mornings)
        var blockArms =
            [ExperimentArm](repeating: .habit, count: block / 2)
            + [ExperimentArm](repeating: .without, count: block / 2)
        while arms.count < mornings {
            for i in stride(from: block - 1, to: 0, by: -1) {
                let j = rng.index(below: i + 1)
                blockArms.swapAt(i, j)
            }
            arms += blockArms.prefix(mornings - arms.count)
        }
        return arms
    }
}

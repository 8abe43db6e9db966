import RecoveryCore

/// How a light or the buzzer behaves over time, as the panel plays it: on/off steps played once (`steps`),
/// then `loop` repeated for ever, or, without a loop, `finalLevel` held. What the box shows and sounds is
/// the core's vocabulary (`LightPattern`, `BuzzerPattern`; deploy/LIGHTS.md), converted by the initialisers
/// below. Patterns, not tones: the buzzer is an active one with a single pitch (DESIGN §2).
public struct OutputPattern: Hashable, Sendable, CustomStringConvertible {
    public struct Step: Hashable, Sendable {
        public var on: Bool
        public var ms: Int64

        public init(on: Bool, ms: Int64) {
            self.on = on
            self.ms = ms
        }
    }

    public var name: String
    /// Played once from the start. Steps of zero or negative length are dropped.
    public var steps: [Step]
    /// Played after `steps`, over and over; empty for a pattern that ends.
    public var loop: [Step]
    /// The level after the steps of a pattern without a loop (and the whole of a stepless one).
    public var finalLevel: Bool

    public init(name: String, steps: [Step], loop: [Step] = [], finalLevel: Bool = false) {
        self.name = name
        self.steps = steps.filter { $0.ms > 0 }
        self.loop = loop.filter { $0.ms > 0 }
        self.finalLevel = finalLevel
    }

    public var description: String { name }

    public var repeats: Bool { !loop.isEmpty }

    /// Length of the once-played part.
    public var introMs: Int64 { steps.reduce(0) { $0 + $1.ms } }

    /// Length of one loop cycle (0 without a loop).
    public var cycleMs: Int64 { loop.reduce(0) { $0 + $1.ms } }

    // MARK: The panel's own levels (the box's vocabulary is the core's `LightPattern` and `BuzzerPattern`)

    public static let off = OutputPattern(name: "off", steps: [], finalLevel: false)
    public static let solid = OutputPattern(name: "solid", steps: [], finalLevel: true)

    /// A lamp pattern of the box (`LightPattern`, the vocabulary of deploy/LIGHTS.md) as the panel plays it.
    public init(_ light: LightPattern) {
        let steps = light.steps.map { Step(on: $0.on, ms: Int64($0.ms)) }
        if light.repeats {
            self.init(name: light.name, steps: [], loop: steps)
        } else {
            self.init(name: light.name, steps: steps, finalLevel: light.rest)
        }
    }

    /// A buzzer pattern of the box (`BuzzerPattern`): played once, silent after.
    public init(_ buzzer: BuzzerPattern) {
        self.init(name: buzzer.name, steps: buzzer.steps.map { Step(on: $0.on, ms: Int64($0.ms)) })
    }

    /// The level at `t` ms after the start.
    public func level(atElapsedMs t: Int64) -> Bool {
        var offset = max(0, t)
        for step in steps {
            if offset < step.ms { return step.on }
            offset -= step.ms
        }
        guard cycleMs > 0 else { return finalLevel }
        offset %= cycleMs
        for step in loop {
            if offset < step.ms { return step.on }
            offset -= step.ms
        }
        return finalLevel
    }

    /// The level `elapsedMs` after the start, and the elapsed time of the next change of level; nil when
    /// the level never changes again.
    public func state(atElapsedMs elapsedMs: Int64) -> (on: Bool, nextChangeMs: Int64?) {
        let t = max(0, elapsedMs)
        let now = level(atElapsedMs: t)
        // Step boundaries after t: those left in the intro, then at most two loop cycles (a loop whose
        // level never differs from `now` within two cycles never will).
        var boundary: Int64 = 0
        for step in steps {
            boundary += step.ms
            if boundary > t && level(atElapsedMs: boundary) != now { return (now, boundary) }
        }
        if cycleMs == 0 { return (now, nil) }
        let intro = introMs
        let start = t < intro ? intro : intro + ((t - intro) / cycleMs) * cycleMs
        boundary = start
        for _ in 0..<2 {
            for step in loop {
                boundary += step.ms
                if boundary > t && level(atElapsedMs: boundary) != now { return (now, boundary) }
            }
        }
        return (now, nil)
    }
}

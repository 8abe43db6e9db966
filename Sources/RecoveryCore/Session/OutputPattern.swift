/// How a lamp or the buzzer behaves over time: the one pattern model of the box, which the core names
/// (the lamps' vocabulary in `LightPattern`, the sounds' in `BuzzerPattern`; deploy/LIGHTS.md) and the
/// panel plays on its lines as it is. A list of on/off steps played once or repeated; after a pattern that
/// does not repeat, the output holds `rest`. Pure data: the panel plays it from the moment its first edge
/// is written, with its own monotonic clock. Patterns, not tones: the buzzer is an active one with a single
/// pitch (DESIGN §2).
public struct OutputPattern: Hashable, Sendable, CustomStringConvertible {
    public typealias Step = PatternStep

    public var steps: [Step]
    public var repeats: Bool
    /// The output's state once a non-repeating pattern has played (and the whole pattern when `steps` is
    /// empty).
    public var rest: Bool
    /// Words for the terminal view and the light table ("slow blink", "3 blinks, repeating").
    public var name: String

    public init(steps: [Step], repeats: Bool, rest: Bool, name: String) {
        self.steps = steps.filter { $0.ms > 0 }
        self.repeats = repeats && !self.steps.isEmpty
        self.rest = rest
        self.name = name
    }

    /// A pattern played once, then off: every sound.
    public init(steps: [Step], name: String) {
        self.init(steps: steps, repeats: false, rest: false, name: name)
    }

    public var description: String { name }

    /// True for on and off: nothing to time.
    public var isSteady: Bool { steps.isEmpty }

    public static let off = OutputPattern(steps: [], repeats: false, rest: false, name: "off")
    public static let solid = OutputPattern(steps: [], repeats: false, rest: true, name: "on")

    // MARK: Playing

    /// Total length of one pass through the steps.
    public var periodMs: Int { steps.reduce(0) { $0 + $1.ms } }

    /// Whether the output is on `elapsedMs` after the pattern started.
    public func isOn(atMs elapsedMs: Int64) -> Bool {
        let period = Int64(periodMs)
        guard period > 0, elapsedMs >= 0 else { return steps.isEmpty ? rest : (steps.first?.on ?? rest) }
        if !repeats && elapsedMs >= period { return rest }
        var t = repeats ? elapsedMs % period : elapsedMs
        for step in steps {
            if t < Int64(step.ms) { return step.on }
            t -= Int64(step.ms)
        }
        return rest
    }

    // MARK: Steps in order

    /// Steps are numbered from the first edge across repeats: step `n` is `steps[n % steps.count]` of pass
    /// `n / steps.count`. A pattern played once is at rest from step `steps.count` on.
    public func startMs(ofStep n: Int) -> Int64 {
        guard !steps.isEmpty else { return 0 }
        if !repeats && n >= steps.count { return Int64(periodMs) }
        let pass = Int64(n / steps.count) * Int64(periodMs)
        return pass + steps.prefix(n % steps.count).reduce(0) { $0 + Int64($1.ms) }
    }

    /// The step number `elapsedMs` after the first edge, by the pattern's own timing.
    public func stepNumber(atMs elapsedMs: Int64) -> Int {
        guard !steps.isEmpty, elapsedMs >= 0 else { return 0 }
        let period = Int64(periodMs)
        if !repeats && elapsedMs >= period { return steps.count }
        var n = Int(elapsedMs / period) * steps.count
        var t = elapsedMs % period
        for step in steps {
            if t < Int64(step.ms) { return n }
            t -= Int64(step.ms)
            n += 1
        }
        return n
    }

    /// The output's state during step `n` (`rest` once a pattern played once is over).
    public func isOn(step n: Int) -> Bool {
        guard !steps.isEmpty else { return rest }
        if !repeats && n >= steps.count { return rest }
        return steps[n % steps.count].on
    }

    /// The length of step `n`; nil once a pattern played once is over.
    public func lengthMs(ofStep n: Int) -> Int64? {
        guard !steps.isEmpty, repeats || n < steps.count else { return nil }
        return Int64(steps[n % steps.count].ms)
    }

    /// The next elapsed time, strictly after `elapsedMs`, at which the output may change; nil when it never
    /// will again. The panel arms its timer to this.
    public func nextChangeMs(after elapsedMs: Int64) -> Int64? {
        let period = Int64(periodMs)
        guard period > 0 else { return nil }
        if !repeats && elapsedMs >= period { return nil }
        let base = repeats ? (elapsedMs / period) * period : 0
        var boundary = base
        for step in steps {
            boundary += Int64(step.ms)
            if boundary > elapsedMs { return boundary }
        }
        return repeats ? base + period + Int64(steps[0].ms) : nil
    }
}

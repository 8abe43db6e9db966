/// One sound of the panel's buzzer (DESIGN §2: an active buzzer, so patterns, not tones). An active
/// buzzer has a single pitch: "low" and "rising" are rendered by length and rhythm, and each pattern's
/// rhythm differs enough to be told apart by ear. Always played once from the moment it is given; the
/// buzzer is silent after the last step.
public struct BuzzerPattern: Hashable, Sendable, CustomStringConvertible {
    public typealias Step = PatternStep

    public var steps: [Step]
    /// Words for the terminal view and the light table.
    public var name: String

    public init(steps: [Step], name: String) {
        self.steps = steps.filter { $0.ms > 0 }
        self.name = name
    }

    public var description: String { name }

    public var durationMs: Int { steps.reduce(0) { $0 + $1.ms } }

    /// Whether the buzzer sounds `elapsedMs` after the pattern was given.
    public func isOn(atMs elapsedMs: Int64) -> Bool {
        guard elapsedMs >= 0 else { return false }
        var t = elapsedMs
        for step in steps {
            if t < Int64(step.ms) { return step.on }
            t -= Int64(step.ms)
        }
        return false
    }

    /// The next elapsed time, strictly after `elapsedMs`, at which the buzzer changes; nil once finished.
    public func nextChangeMs(after elapsedMs: Int64) -> Int64? {
        var boundary: Int64 = 0
        for step in steps {
            boundary += Int64(step.ms)
            if boundary > elapsedMs { return boundary }
        }
        return nil
    }

    private static func on(_ ms: Int) -> Step { Step(on: true, ms: ms) }
    private static func off(_ ms: Int) -> Step { Step(on: false, ms: ms) }

    // MARK: The vocabulary

    /// An accepted digit; a habit switched on; each count of the stand cue.
    public static let short = BuzzerPattern(steps: [on(70)], name: "short beep")
    /// A wrong key, a refusal, an error: one flat half-second buzz.
    public static let low = BuzzerPattern(steps: [on(500)], name: "low beep")
    /// A habit switched off.
    public static let doubleShort = BuzzerPattern(steps: [on(70), off(120), on(70)], name: "two short beeps")
    /// "Stand now" at the end of the 3-2-1 cue (DESIGN §1 step 4).
    public static let longTone = BuzzerPattern(steps: [on(1200)], name: "long tone")
    /// Questionnaire saved.
    public static let saved = BuzzerPattern(steps: [on(70), off(80), on(200)], name: "short-long")
    /// The morning is complete (DESIGN §1 step 5): three beeps, each longer than the last.
    public static let risingTriple = BuzzerPattern(
        steps: [on(60), off(120), on(120), off(120), on(240)], name: "rising triple beep")
    /// The morning reminder, only when the buzzer is enabled for it.
    public static let reminder = BuzzerPattern(
        steps: [on(70), off(150), on(70), off(150), on(70)], name: "three short beeps")
}

/// The buzzer's vocabulary (DESIGN §2: an active buzzer, so patterns, not tones): named `OutputPattern`s,
/// each played once from the moment it is given, silent after the last step. An active buzzer has a single
/// pitch: "low" and "rising" are rendered by length and rhythm, and each rhythm differs enough to be told
/// apart by ear.
public typealias BuzzerPattern = OutputPattern

extension OutputPattern {
    private static func beep(_ ms: Int) -> Step { Step(on: true, ms: ms) }
    private static func pause(_ ms: Int) -> Step { Step(on: false, ms: ms) }

    /// An accepted digit; a habit switched on; each count of the stand cue.
    public static let short = OutputPattern(steps: [beep(70)], name: "short beep")
    /// A wrong key, a refusal, an error: one flat half-second buzz.
    public static let low = OutputPattern(steps: [beep(500)], name: "low beep")
    /// A habit switched off.
    public static let doubleShort = OutputPattern(steps: [beep(70), pause(120), beep(70)], name: "two short beeps")
    /// "Stand now" at the end of the 3-2-1 cue (DESIGN §1 step 4).
    public static let longTone = OutputPattern(steps: [beep(1200)], name: "long tone")
    /// Questionnaire saved.
    public static let saved = OutputPattern(steps: [beep(70), pause(80), beep(200)], name: "short-long")
    /// The morning is complete (DESIGN §1 step 5): three beeps, each longer than the last.
    public static let risingTriple = OutputPattern(
        steps: [beep(60), pause(120), beep(120), pause(120), beep(240)], name: "rising triple beep")
    /// The morning reminder, only when the buzzer is enabled for it.
    public static let reminder = OutputPattern(
        steps: [beep(70), pause(150), beep(70), pause(150), beep(70)], name: "three short beeps")
}

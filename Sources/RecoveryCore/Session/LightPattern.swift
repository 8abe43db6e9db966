/// The lamps' vocabulary (DESIGN §2: slow blink = reminder, fast blink = connecting, solid = strap live
/// with RR; blink codes for errors): named `OutputPattern`s, with `off` and `solid`.
public typealias LightPattern = OutputPattern

extension OutputPattern {
    // Timings chosen to be told apart across a dark bedroom.

    /// 1 s on, 1 s off: the morning reminder; the readout while baselines are building.
    public static let slowBlink = LightPattern(
        steps: [Step(on: true, ms: 1000), Step(on: false, ms: 1000)], repeats: true, rest: false, name: "slow blink")
    /// 125 ms on, 125 ms off: connecting to the strap; "GO again to confirm".
    public static let fastBlink = LightPattern(
        steps: [Step(on: true, ms: 125), Step(on: false, ms: 125)], repeats: true, rest: false, name: "fast blink")
    /// Two short flashes a second: strap live without RR; questionnaire waiting for `#`.
    public static let doubleBlink = LightPattern(
        steps: [
            Step(on: true, ms: 150), Step(on: false, ms: 150), Step(on: true, ms: 150), Step(on: false, ms: 550),
        ], repeats: true, rest: false, name: "double blink")

    /// On, with a short dark wink each second: questionnaire habit mode.
    public static let wink = LightPattern(
        steps: [Step(on: true, ms: 800), Step(on: false, ms: 200)], repeats: true, rest: false, name: "on, winking")

    /// One blink of a count or a code: long enough to count in the dark.
    public static let countOnMs = 300
    public static let countOffMs = 300
    /// The gap between repetitions of a blink code.
    public static let codePauseMs = 1500

    /// `n` blinks once, then `rest` (the questionnaire item cue, the readout's channel number).
    public static func count(_ n: Int, then rest: Bool = false) -> LightPattern {
        LightPattern(
            steps: countSteps(n), repeats: false, rest: rest, name: n == 1 ? "1 blink" : "\(n) blinks")
    }

    /// `n` blinks, a pause, repeated: the error codes.
    public static func code(_ n: Int) -> LightPattern {
        var steps = countSteps(n)
        steps.append(Step(on: false, ms: codePauseMs))
        return LightPattern(
            steps: steps, repeats: true, rest: false, name: n == 1 ? "1 blink, repeating" : "\(n) blinks, repeating")
    }

    /// A delayed, time-limited solid lamp: dark for `delayMs`, on for `ms`, then off.
    public static func solid(after delayMs: Int, forMs ms: Int) -> LightPattern {
        LightPattern(
            steps: [Step(on: false, ms: delayMs), Step(on: true, ms: ms)], repeats: false, rest: false,
            name: delayMs > 0
                ? "on for \(Self.seconds(ms)) after \(Self.seconds(delayMs))" : "on for \(Self.seconds(ms))")
    }

    /// `n` blinks, then a slow blink for `ms`, then off: a channel still building its baseline.
    public static func countThenSlowBlink(_ n: Int, forMs ms: Int) -> LightPattern {
        var steps = countSteps(n)
        var left = ms
        while left > 0 {
            steps.append(Step(on: true, ms: min(1000, left)))
            left -= 1000
            if left > 0 {
                steps.append(Step(on: false, ms: min(1000, left)))
                left -= 1000
            }
        }
        return LightPattern(
            steps: steps, repeats: false, rest: false, name: "\(n) blinks, then slow blink for \(seconds(ms))")
    }

    /// How long `n` blinks take.
    public static func countDurationMs(_ n: Int) -> Int { n * (countOnMs + countOffMs) }

    private static func countSteps(_ n: Int) -> [Step] {
        (0..<max(0, n)).flatMap { _ in [Step(on: true, ms: countOnMs), Step(on: false, ms: countOffMs)] }
    }

    static func seconds(_ ms: Int) -> String {
        ms % 1000 == 0 ? "\(ms / 1000) s" : "\(Double(ms) / 1000) s"
    }
}

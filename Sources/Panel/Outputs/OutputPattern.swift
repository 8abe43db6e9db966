/// How a light or the buzzer behaves over time: on/off steps played once (`steps`), then `loop` repeated
/// for ever, or, without a loop, `finalLevel` held. Patterns, not tones: the buzzer is an active one with a
/// single pitch (DESIGN §2), so a "low beep" or a "rising" triple is told apart by rhythm.
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

    // MARK: Lights (DESIGN §1–2)

    public static let off = OutputPattern(name: "off", steps: [], finalLevel: false)
    public static let solid = OutputPattern(name: "solid", steps: [], finalLevel: true)
    /// 1 Hz: the morning reminder on the blue light.
    public static let slowBlink = blink(name: "slow blink", onMs: 500, offMs: 500)
    /// 4 Hz: connecting; "are you sure?".
    public static let fastBlink = blink(name: "fast blink", onMs: 125, offMs: 125)

    public static func blink(name: String = "blink", onMs: Int64, offMs: Int64) -> OutputPattern {
        OutputPattern(name: name, steps: [], loop: [Step(on: true, ms: onMs), Step(on: false, ms: offMs)])
    }

    /// `count` blinks (250 ms on, 250 ms off) and then off: "the blue light blinks N times before item N".
    public static func blinks(_ count: Int) -> OutputPattern {
        OutputPattern(name: "\(count) blinks", steps: blinkSteps(count))
    }

    /// A blink code: `count` blinks, a pause (1.5 s dark in all), repeated, so the count can be read
    /// off the light (each error its own number).
    public static func blinkCode(_ count: Int) -> OutputPattern {
        var steps = blinkSteps(count)
        if !steps.isEmpty { steps[steps.count - 1].ms += 1250 }
        return OutputPattern(name: "blink code \(count)", steps: [], loop: steps)
    }

    private static func blinkSteps(_ count: Int) -> [Step] {
        (0..<max(0, count)).flatMap { _ in [Step(on: true, ms: 250), Step(on: false, ms: 250)] }
    }

    // MARK: Buzzer (DESIGN §1)

    /// Each accepted digit.
    public static let shortBeep = OutputPattern(name: "short beep", steps: [Step(on: true, ms: 60)])
    /// The stand cue's long tone.
    public static let longBeep = OutputPattern(name: "long beep", steps: [Step(on: true, ms: 1000)])
    /// A wrong key or a refusal: a "low" beep rendered as a burr of four quick pulses.
    public static let lowBeep = OutputPattern(
        name: "low beep",
        steps: (0..<4).flatMap { _ in [Step(on: true, ms: 40), Step(on: false, ms: 30)] })
    /// The stand cue: beeps at 0, 1 and 2 s ("3, 2, 1"), then the long tone from 3 s to 4 s.
    public static let countdown = OutputPattern(
        name: "3-2-1 countdown",
        steps: [
            Step(on: true, ms: 150), Step(on: false, ms: 850), Step(on: true, ms: 150), Step(on: false, ms: 850),
            Step(on: true, ms: 150), Step(on: false, ms: 850), Step(on: true, ms: 1000),
        ])
    /// The readout is ready: three beeps growing longer and closer together.
    public static let risingTriple = OutputPattern(
        name: "rising triple",
        steps: [
            Step(on: true, ms: 60), Step(on: false, ms: 140), Step(on: true, ms: 120), Step(on: false, ms: 100),
            Step(on: true, ms: 240),
        ])

    // MARK: Composition

    /// The pattern cut off after `durationMs`, then off (the readout stays lit 30 s, then goes dark).
    public func limited(toMs durationMs: Int64) -> OutputPattern {
        var out: [Step] = []
        var t: Int64 = 0
        let end = max(0, durationMs)
        while t < end {
            let (on, next) = state(atElapsedMs: t)
            let until = min(next ?? end, end)
            out.append(Step(on: on, ms: until - t))
            t = until
        }
        return OutputPattern(name: "\(name) for \(durationMs) ms", steps: out)
    }

    /// This pattern, then `next` (when this one ends: a looping pattern never does).
    public func followed(by next: OutputPattern) -> OutputPattern {
        guard !repeats else { return self }
        return OutputPattern(
            name: "\(name), then \(next.name)", steps: steps + next.steps, loop: next.loop, finalLevel: next.finalLevel)
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

/// One step of a lamp's or the buzzer's pattern: on or off for `ms` milliseconds.
public struct PatternStep: Hashable, Sendable {
    public var on: Bool
    public var ms: Int

    public init(on: Bool, ms: Int) {
        self.on = on
        self.ms = ms
    }
}

/// One 1–7 questionnaire score.
public struct Score: Hashable, Comparable, Sendable {
    public static let range = 1...7
    public let value: Int

    public init?(_ value: Int) {
        guard Score.range.contains(value) else { return nil }
        self.value = value
    }

    public static func < (a: Score, b: Score) -> Bool { a.value < b.value }
}

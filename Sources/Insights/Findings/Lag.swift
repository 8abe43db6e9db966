import RecoveryCore

/// Which morning's outcome a feature is paired with.
///
/// - lag 0: the feature entered on morning d against the outcome measured on morning d. For habits, caffeine
///   and meals that is already "the night before": alcohol tagged on morning d was drunk the evening before
///   the measurement it is paired with. For scores it is the same morning (concurrent, no order in time).
/// - lag 1: the feature entered on morning d against the outcome on morning d + 1: an evening's habit against
///   the second morning after it (a carried-over effect); a morning's score against the next morning.
public enum Lag: Int, CaseIterable, Sendable, Comparable {
    case zero = 0
    case one = 1

    public static func < (a: Lag, b: Lag) -> Bool { a.rawValue < b.rawValue }

    /// Words for the pairing, used in the findings' templates.
    public func phrase(for feature: Feature) -> String {
        switch (self, feature.timing) {
        case (.zero, .eveningBefore): "the next morning"
        case (.one, .eveningBefore): "two mornings later"
        case (.zero, .sameMorning): "the same morning"
        case (.one, .sameMorning): "the next morning"
        }
    }
}

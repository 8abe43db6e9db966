import RecoveryCore

/// A morning metric a finding is about: the five baseline channels (spec §5.4), through RecoveryCore's
/// `Channel` so the values are exactly the ones the lights use (quality-passed rMSSD, completed orthostatic).
public typealias Outcome = Channel

/// When a questionnaire answer happened relative to the morning it was entered on.
public enum FeatureTiming: String, Sendable {
    /// Habit tags, caffeine and last meal entered on morning d describe the evening or day before it
    /// ("alcohol last night", "hard training yesterday"): they happen before morning d's measurement.
    case eveningBefore
    /// The five scores describe the morning itself, a few minutes before the measurement.
    case sameMorning
}

/// A habit or input a finding is about (DESIGN §6: habit tags, caffeine, last meal, subjective scores), or a
/// morning metric tested against another one.
public enum Feature: Hashable, Sendable, Comparable {
    /// A habit tag: 1 on a morning it was toggled, 0 on a morning whose questionnaire left it off.
    case habit(String)
    /// Caffeine amount, mg, as entered (left empty = missing, not 0).
    case caffeineAmount
    /// Time of the last caffeine, hours after the midnight that began the day before (see `clockHours`).
    case caffeineTime
    /// Time of the last meal, same scale.
    case lastMealTime
    /// One questionnaire score, 1–7.
    case score(SubjectiveItem)
    /// A morning metric itself, against another morning metric of the same morning.
    case metric(Channel)

    public var key: String {
        switch self {
        case .habit(let name): "habit:\(name)"
        case .caffeineAmount: "caffeine_mg"
        case .caffeineTime: "caffeine_time"
        case .lastMealTime: "last_meal_time"
        case .score(let item): "score:\(item.rawValue)"
        case .metric(let channel): "metric:\(channel.rawValue)"
        }
    }

    public var label: String {
        switch self {
        case .habit(let name): name
        case .caffeineAmount: "caffeine amount"
        case .caffeineTime: "last caffeine time"
        case .lastMealTime: "last meal time"
        case .score(let item): "\(item.label) score"
        case .metric(let channel): channel == .subjective ? "subjective mean" : channel.label
        }
    }

    public var isBinary: Bool { if case .habit = self { true } else { false } }

    public var timing: FeatureTiming {
        switch self {
        case .score, .metric: .sameMorning
        default: .eveningBefore
        }
    }

    /// The value on the day's questionnaire; nil when there is none (missing stays missing).
    public func value(in day: DayRecord) -> Double? {
        if case .metric(let channel) = self { return channel.value(in: day) }
        guard let q = day.questionnaire else { return nil }
        switch self {
        case .habit(let name): return q.habits.contains(name) ? 1 : 0
        case .caffeineAmount: return q.caffeineMg.map(Double.init)
        case .caffeineTime: return q.caffeineTime.map(Feature.clockHours)
        case .lastMealTime: return q.lastMealTime.map(Feature.clockHours)
        case .score(let item): return Double(q.scores[item].value)
        case .metric: return nil  // not from the questionnaire; see below
        }
    }

    /// A clock time entered in the morning about the evening before, as hours: times before 05:00 are the
    /// small hours after that evening, so 00:30 is 24.5 (later than 23:00), not 0.5.
    public static func clockHours(_ t: MinuteOfDay) -> Double {
        let h = Double(t.minutes) / 60
        return t.minutes < 5 * 60 ? h + 24 : h
    }

    public static func < (a: Feature, b: Feature) -> Bool { a.order < b.order || (a.order == b.order && a.key < b.key) }

    private var order: Int {
        switch self {
        case .habit: 0
        case .caffeineAmount: 1
        case .caffeineTime: 2
        case .lastMealTime: 3
        case .score(let item): 4 + (SubjectiveItem.allCases.firstIndex(of: item) ?? 0)
        case .metric(let channel): 4 + SubjectiveItem.allCases.count + (Channel.allCases.firstIndex(of: channel) ?? 0)
        }
    }
}

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

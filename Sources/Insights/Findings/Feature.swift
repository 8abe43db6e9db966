import RecoveryCore

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

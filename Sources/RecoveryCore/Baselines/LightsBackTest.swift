/// The stored history judged twice, under the edges in use and under trial edges: for each channel and the
/// composite, how many of the days were green / yellow / red under each, and the days whose light would change.
/// Each day is judged as the box judged it that morning (its own 7-day and 60-day windows); a day with nothing
/// stored has no light, as in `history`. Pure: the days and the last day are given.
public struct LightsBackTest: Hashable, Sendable {
    /// A channel's light or the composite.
    public enum Series: Hashable, Sendable, CustomStringConvertible {
        case channel(Channel)
        case composite

        public static var all: [Series] { Channel.allCases.map(Series.channel) + [.composite] }

        public var description: String {
            switch self {
            case .channel(let c): c.rawValue
            case .composite: "composite"
            }
        }

        public var label: String {
            switch self {
            case .channel(let c): c.label
            case .composite: "composite"
            }
        }
    }

    /// How many days showed each light; `unlit` counts days with none (building, too few recent mornings,
    /// nothing stored).
    public struct Counts: Hashable, Sendable {
        public var green = 0
        public var yellow = 0
        public var red = 0
        public var unlit = 0

        public subscript(light: TrafficLight?) -> Int {
            switch light {
            case .green: green
            case .yellow: yellow
            case .red: red
            case nil: unlit
            }
        }

        mutating func count(_ light: TrafficLight?) {
            switch light {
            case .green: green += 1
            case .yellow: yellow += 1
            case .red: red += 1
            case nil: unlit += 1
            }
        }
    }

    /// One day on which one series' light differs between the two sets of edges.
    public struct Change: Hashable, Sendable {
        public var date: LocalDate
        public var series: Series
        public var from: TrafficLight
        public var to: TrafficLight
    }

    public let first: LocalDate
    public let last: LocalDate
    public let current: LightEdges
    public let trial: LightEdges
    /// Per series, in `Series.all` order.
    public let currentCounts: [Series: Counts]
    public let trialCounts: [Series: Counts]
    /// Oldest first; within a day in `Series.all` order.
    public let changes: [Change]

    public init(
        days: some Sequence<DayRecord>, through last: LocalDate, count: Int, current: LightEdges,
        trial: LightEdges
    ) {
        var byDay: [Int: DayRecord] = [:]
        for day in days { byDay[day.date.dayNumber] = day }
        let first = last.adding(days: -(count - 1))
        self.first = first
        self.last = last
        self.current = current
        self.trial = trial
        var currentCounts = Dictionary(uniqueKeysWithValues: Series.all.map { ($0, Counts()) })
        var trialCounts = currentCounts
        var changes: [Change] = []
        for offset in 0..<max(count, 0) {
            let date = first.adding(days: offset)
            let a: [Series: TrafficLight]
            let b: [Series: TrafficLight]
            if byDay[date.dayNumber] == nil {
                (a, b) = ([:], [:])
            } else {
                let window = (date.dayNumber - Baselines.normDays...date.dayNumber).compactMap { byDay[$0] }
                a = LightsBackTest.lights(Baselines.readout(days: window, today: date, edges: current))
                b = LightsBackTest.lights(Baselines.readout(days: window, today: date, edges: trial))
            }
            for series in Series.all {
                currentCounts[series]!.count(a[series])
                trialCounts[series]!.count(b[series])
                if let from = a[series], let to = b[series], from != to {
                    changes.append(Change(date: date, series: series, from: from, to: to))
                }
            }
        }
        self.currentCounts = currentCounts
        self.trialCounts = trialCounts
        self.changes = changes
    }

    /// The lights a readout shows, by series (a series without a light is absent).
    static func lights(_ readout: Readout) -> [Series: TrafficLight] {
        var out: [Series: TrafficLight] = [:]
        for c in readout.channels { out[.channel(c.channel)] = c.light }
        if case .lit(let light) = readout.composite { out[.composite] = light }
        return out
    }
}

extension PanelReadout {
    /// The panel's reduction of the core's readout (spec §5.4): each channel's light in keypad order, the
    /// composite, and the words, always labelled as a rough signal; `grade` adds a fair morning's note
    /// ("fair (7.3 % of beats rejected)", `HRVMetrics.fairNote`) to the words.
    public init(_ readout: Readout, grade: String? = nil) {
        func light(_ state: ChannelReadout.State) -> ReadoutLight {
            switch state {
            case .lit(let l), .fallback(let l): ReadoutLight(l)
            case .building: .building
            case .missing: .missing
            }
        }
        let composite: ReadoutLight
        switch readout.composite {
        case .lit(let l): composite = ReadoutLight(l)
        case .building: composite = .building
        case .missing: composite = .missing
        }
        let channels = Channel.allCases.map { light(readout[$0].state) }
        let words = (readout.channels.map(\.words) + (grade.map { [$0] } ?? [])).joined(separator: ", ")
        let head =
            composite == .building
            ? "baselines building (\(readout.completeDaysInNorm) of 14 complete days)" : composite.rawValue
        self.init(composite: composite, channels: channels, summary: "\(head): \(words) — \(Baselines.compositeLabel)")
    }
}

extension PanelReadout {
    /// The first day of the history the readout after the morning of `date` reads: the norm window and the
    /// day before it.
    public static func historyStart(forMorningOn date: LocalDate) -> LocalDate {
        date.adding(days: -(Baselines.normDays + 1))
    }

    /// The readout after the morning of `date`, from `history` (the days from `historyStart(forMorningOn:)`
    /// through `date`, one record a day, what waits for the database included) with the person's light edges;
    /// a fair morning's note is taken from that day's measurement.
    public init(morningOn date: LocalDate, history: [DayRecord], edges: LightEdges) {
        let measurement = history.last { $0.date == date }?.measurement
        let grade = measurement.flatMap { $0.quality == .ok ? $0.hrv?.fairNote : nil }
        self.init(Baselines.readout(days: history, today: date, edges: edges), grade: grade)
    }
}

extension ReadoutLight {
    public init(_ light: TrafficLight) {
        switch light {
        case .green: self = .green
        case .yellow: self = .yellow
        case .red: self = .red
        }
    }
}

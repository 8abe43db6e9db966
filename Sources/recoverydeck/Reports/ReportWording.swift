import LocalClock
import Platform
import RecoveryCore

/// Shared wording for the day's numbers, lights and dates, so status, history and demo agree (the findings'
/// sentences are Insights' `Wording`).
enum ReportWording {
    static let dash = "–"

    static func weekday(_ date: LocalDate) -> String {
        // 1970-01-01 was a Thursday.
        let names = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
        return names[((date.dayNumber % 7) + 7) % 7]
    }

    /// A channel's value with the precision it is measured to: rMSSD and the subjective mean to 0.1,
    /// heart rates to the beat.
    static func value(_ value: Double?, _ channel: Channel) -> String {
        guard let value else { return dash }
        switch channel {
        case .rmssd, .subjective: return Formatting.fixed(value, digits: 1)
        case .lyingHR, .gapPeak, .gapAvg: return Formatting.fixed(value, digits: 0)
        }
    }

    static func unit(_ channel: Channel) -> String {
        switch channel {
        case .rmssd: " ms"
        case .lyingHR, .gapPeak, .gapAvg: " bpm"
        case .subjective: ""
        }
    }

    /// "green", "yellow (absolute)", "building", "–".
    static func light(_ state: ChannelReadout.State) -> String {
        switch state {
        case .lit(let light): light.rawValue
        case .fallback(let light): light.rawValue + " (absolute)"
        case .building: "building"
        case .missing: dash
        }
    }

    static func composite(_ composite: Readout.Composite) -> String {
        switch composite {
        case .lit(let light): light.rawValue
        case .building: "building"
        case .missing: dash
        }
    }

    /// Local `HH:MM` of an epoch instant in the system time zone.
    static func clock(_ epochSeconds: Int64) -> String {
        LocalTime(epochSeconds: epochSeconds).minuteOfDay.description
    }

    /// A row of cells padded to `widths` (the last cell is not padded).
    static func row(_ cells: [String], _ widths: [Int]) -> String {
        var line = ""
        for (i, cell) in cells.enumerated() {
            line += i == cells.count - 1 ? cell : Formatting.padded(cell, widths[i])
        }
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }
}

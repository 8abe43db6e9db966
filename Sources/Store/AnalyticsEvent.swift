import RecoveryCore

/// What kind of thing happened (spec §7.3). Open-ended: a module may name its own kinds.
public struct AnalyticsKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A morning measurement finished with quality ok.
    public static let morningCompleted = AnalyticsKind(rawValue: "morning_completed")
    /// The person skipped the orthostatic part.
    public static let orthostaticSkipped = AnalyticsKind(rawValue: "orthostatic_skipped")
    /// The rMSSD capture failed quality; payload is the reason (`too_few_beats`, …).
    public static let hrvQualityFail = AnalyticsKind(rawValue: "hrv_quality_fail")
    /// value = the session's duration in ms, for every saved morning.
    public static let sessionDurationMs = AnalyticsKind(rawValue: "session_duration_ms")
    /// The strap could not be connected; payload a short reason.
    public static let bleConnectFail = AnalyticsKind(rawValue: "ble_connect_fail")
    /// A started session was cancelled before it finished.
    public static let sessionCancelled = AnalyticsKind(rawValue: "session_cancelled")
    /// A morning replaced an earlier measurement of the same day (spec §6.1 remeasure).
    public static let remeasured = AnalyticsKind(rawValue: "remeasured")
    /// The box gave the morning reminder; payload the day (`MorningReminder`, recorded by the daemon itself).
    public static let reminderShown = AnalyticsKind(rawValue: "reminder_shown")
}

/// One local analytics event: append-only, with a timestamp and a small payload.
public struct AnalyticsEvent: Hashable, Sendable {
    /// Seconds since the Unix epoch.
    public var at: Int64
    /// The local day it belongs to, when it belongs to one.
    public var day: LocalDate?
    public var kind: AnalyticsKind
    /// A number the kind defines (a duration, a count), if any.
    public var value: Int64?
    /// A short text the kind defines (a reason), at most 1024 bytes.
    public var payload: String?

    public init(at: Int64, day: LocalDate? = nil, kind: AnalyticsKind, value: Int64? = nil, payload: String? = nil) {
        self.at = at
        self.day = day
        self.kind = kind
        self.value = value
        self.payload = payload
    }

    /// The events a saved morning implies: its duration always; `morning_completed` when quality is
    /// ok, else `hrv_quality_fail` with the reason; `orthostatic_skipped` when skipped.
    public static func describing(_ m: MorningMeasurement, at: Int64) -> [AnalyticsEvent] {
        var events = [AnalyticsEvent(at: at, day: m.date, kind: .sessionDurationMs, value: m.durationMs)]
        switch m.quality {
        case .ok: events.append(AnalyticsEvent(at: at, day: m.date, kind: .morningCompleted))
        case .fail(let reason):
            events.append(AnalyticsEvent(at: at, day: m.date, kind: .hrvQualityFail, payload: reason.rawValue))
        }
        if m.orthostaticStatus == .skipped {
            events.append(AnalyticsEvent(at: at, day: m.date, kind: .orthostaticSkipped))
        }
        return events
    }
}

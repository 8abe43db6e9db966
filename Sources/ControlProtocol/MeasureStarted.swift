import JSON

/// The answer to `measure`: the session's phase now and the day it measures.
public struct MeasureStarted: ControlAnswer, Hashable {
    public static let request = "measure"
    /// `MorningSession.Phase`'s raw value.
    public var phase: String
    /// The local day, "YYYY-MM-DD".
    public var date: String

    public init(phase: String, date: String) {
        self.phase = phase
        self.date = date
    }

    public var fields: [(String, JSONValue)] { [("phase", .string(phase)), ("date", .string(date))] }

    public init(_ fields: ControlFields) throws(ControlMalformed) {
        phase = try fields.string("phase")
        date = try fields.string("date")
    }
}

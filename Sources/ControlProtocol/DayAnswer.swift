import JSON

/// The answer to `day-changed` and `resume-writes`: the day the daemon now keeps, after reading it again.
public struct DayAnswer: ControlAnswer, Hashable {
    public static let request = "day-changed or resume-writes"
    /// The local day, "YYYY-MM-DD".
    public var date: String

    public init(date: String) { self.date = date }

    public var fields: [(String, JSONValue)] { [("date", .string(date))] }

    public init(_ fields: ControlFields) throws(ControlMalformed) { date = try fields.string("date") }
}

import BlueZ
import JSON
import Platform

/// The answer to `scan`, sent when its time is up: the straps the daemon heard.
public struct ScanFound: ControlAnswer {
    public static let request = "scan"
    public var straps: [StrapCandidate]

    public init(straps: [StrapCandidate]) { self.straps = straps }

    public var fields: [(String, JSONValue)] { [("straps", .array(straps.map(\.controlJSON)))] }

    /// The straps as last seen when the reply is read (the daemon's clock is not this process's).
    public init(_ fields: ControlFields) throws(ControlMalformed) {
        let now = SystemClock.monotonicMs()
        var straps: [StrapCandidate] = []
        for strap in try fields.array("straps") { straps.append(try StrapCandidate(controlJSON: strap, nowMs: now)) }
        self.straps = straps
    }
}

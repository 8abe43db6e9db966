import JSON

/// The answer to `status` and to `watch` (whose packets follow it): the session as it is now.
public struct SessionStatus: ControlAnswer, Hashable {
    public static let request = "status or watch"
    public var snapshot: ControlSnapshot

    public init(snapshot: ControlSnapshot) { self.snapshot = snapshot }

    public var fields: [(String, JSONValue)] { [("snapshot", snapshot.json)] }

    public init(_ fields: ControlFields) throws(ControlMalformed) {
        snapshot = try ControlSnapshot(json: try fields.value("snapshot"))
    }
}

import JSON

/// The answer to a request that has nothing to say but yes (`pause-writes`).
public struct Acknowledged: ControlAnswer, Hashable {
    public static let request = "pause-writes or stop"

    public init() {}

    public var fields: [(String, JSONValue)] { [] }

    public init(_ fields: ControlFields) throws(ControlMalformed) {}
}
